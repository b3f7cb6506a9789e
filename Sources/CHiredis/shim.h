// Debian's hiredis (libhiredis-dev 0.14): the synchronous client. Only RoomCluster imports this module.
#include <hiredis/hiredis.h>
#include <sys/socket.h>
