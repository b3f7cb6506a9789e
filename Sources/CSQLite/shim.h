// The system SQLite (Debian: libsqlite3-dev). Only SharedObjectSQLite imports this module.
#include <sqlite3.h>
