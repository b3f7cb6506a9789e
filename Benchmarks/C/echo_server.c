/*
 * The C baseline server of `make bench`: libwebsockets, one thread, 127.0.0.1, ephemeral port.
 * Prints its URL as the first stdout line and serves until SIGTERM/SIGINT.
 *
 * Each text message is one request. A message containing "method" is answered as a JSON-RPC echo,
 * {"jsonrpc":"2.0","id":<id>,"result":<params>}, with <id> and <params> cut out of the request by a
 * bracket-matching scan: deliberately NOT a JSON parser and no validation, the cheapest answer a C server can
 * give. Any other message is echoed back unchanged (the raw echo baseline). Replies are queued and written
 * in WRITEABLE while the socket takes them (as our transport does, docs/libwebsockets.md#writes).
 */
#define _GNU_SOURCE
#include <libwebsockets.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MESSAGE 65536

struct reply { struct reply *next; size_t length; unsigned char bytes[]; /* LWS_PRE + payload */ };
struct session { struct reply *head, *tail; size_t received; unsigned char message[MAX_MESSAGE]; };

static volatile sig_atomic_t stopping;
static void on_signal(int number) { (void)number; stopping = 1; }

/* The end of the JSON value starting at text[i] (strings, nested brackets), or 0 when it does not end. */
static size_t value_end(const char *text, size_t length, size_t i) {
    int depth = 0, in_string = 0;
    for (; i < length; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') { in_string = 0; if (depth == 0) return i + 1; }
        } else if (c == '"') in_string = 1;
        else if (c == '[' || c == '{') depth++;
        else if (c == ']' || c == '}') { if (depth == 0) return i; if (--depth == 0) return i + 1; }
        else if (c == ',' && depth == 0) return i;
    }
    return 0;
}

/* Locates the value of "key" at any depth by string search; returns its start and sets *end. */
static const char *find_value(const char *text, size_t length, const char *key, size_t *end) {
    size_t key_length = strlen(key);
    const char *at = memmem(text, length, key, key_length);
    if (!at) return NULL;
    size_t i = (size_t)(at - text) + key_length;
    while (i < length && (text[i] == ' ' || text[i] == ':')) i++;
    size_t stop = value_end(text, length, i);
    if (!stop) return NULL;
    *end = stop;
    return text + i;
}

static void queue_reply(struct lws *wsi, struct session *s, const char *parts[], const size_t lengths[], int count) {
    size_t total = 0;
    for (int k = 0; k < count; k++) total += lengths[k];
    struct reply *r = malloc(sizeof *r + LWS_PRE + total);
    if (!r) return;
    r->next = NULL;
    r->length = total;
    unsigned char *p = r->bytes + LWS_PRE;
    for (int k = 0; k < count; k++) { memcpy(p, parts[k], lengths[k]); p += lengths[k]; }
    if (s->tail) s->tail->next = r; else s->head = r;
    s->tail = r;
    lws_callback_on_writable(wsi);
}

static void answer(struct lws *wsi, struct session *s) {
    const char *text = (const char *)s->message;
    size_t length = s->received;
    if (memmem(text, length, "\"method\"", 8)) {
        size_t id_end = 0, params_end = 0;
        const char *id = find_value(text, length, "\"id\"", &id_end);
        const char *params = find_value(text, length, "\"params\"", &params_end);
        if (!id) return; /* a notification: no reply */
        static const char head[] = "{\"jsonrpc\":\"2.0\",\"id\":", middle[] = ",\"result\":";
        const char *parts[] = {head, id, middle, params ? params : "null", "}"};
        size_t lengths[] = {sizeof head - 1, id_end - (size_t)(id - text), sizeof middle - 1,
                            params ? params_end - (size_t)(params - text) : 4, 1};
        queue_reply(wsi, s, parts, lengths, 5);
    } else {
        const char *parts[] = {text};
        size_t lengths[] = {length};
        queue_reply(wsi, s, parts, lengths, 1);
    }
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct session *s = user;
    switch (reason) {
    case LWS_CALLBACK_ESTABLISHED:
        s->head = s->tail = NULL;
        s->received = 0;
        break;
    case LWS_CALLBACK_RECEIVE:
        if (s->received + len > MAX_MESSAGE) return -1;
        memcpy(s->message + s->received, in, len);
        s->received += len;
        if (lws_is_final_fragment(wsi)) { answer(wsi, s); s->received = 0; }
        break;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        while (s->head) {
            struct reply *r = s->head;
            if (lws_write(wsi, r->bytes + LWS_PRE, r->length, LWS_WRITE_TEXT) < (int)r->length) return -1;
            s->head = r->next;
            if (!s->head) s->tail = NULL;
            free(r);
            if (s->head && lws_send_pipe_choked(wsi)) { lws_callback_on_writable(wsi); break; }
        }
        break;
    case LWS_CALLBACK_CLOSED:
        while (s->head) { struct reply *r = s->head; s->head = r->next; free(r); }
        break;
    default:
        break;
    }
    return 0;
}

static struct lws_protocols protocols[] = {
    {"echo", callback, sizeof(struct session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

int main(void) {
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = 0;
    info.iface = "127.0.0.1";
    info.protocols = protocols;
    info.gid = -1;
    info.uid = -1;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    struct lws_context *context = lws_create_context(&info);
    if (!context) { fprintf(stderr, "lws_create_context failed\n"); return 1; }
    printf("ws://127.0.0.1:%d/\n", lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default")));
    fflush(stdout);
    while (!stopping && lws_service(context, 0) >= 0) {}
    lws_context_destroy(context);
    return 0;
}
