/*
 * The C baseline client of `make bench`: libwebsockets, one thread.
 * Usage: echo_client URL raw|rpc SECONDS
 *   raw: 256-byte text frames; rpc: JSON-RPC `echo` requests of about 256 bytes (a 200-character string param).
 * Phase 1 keeps 32 messages in flight for SECONDS and counts replies; phase 2 sends one at a time for SECONDS/2
 * (at most 20,000) and records each round trip. Prints one JSON object. Replies are only counted (rpc: checked
 * to contain "result"), never parsed.
 */
#define _GNU_SOURCE
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW 32
#define MAX_SAMPLES 20000

static int rpc_mode, phase, done, failed;
static double seconds_per_phase, phase_start, phase_end, last_receipt, sent_at;
static long to_send, in_flight, received, errors, next_id = 1;
static double samples[MAX_SAMPLES];
static int sample_count;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double p) {
    if (sample_count == 0) return 0;
    int rank = (int)(p / 100 * sample_count + 0.999999) - 1;
    if (rank < 0) rank = 0;
    if (rank >= sample_count) rank = sample_count - 1;
    return samples[rank];
}

static int write_one(struct lws *wsi) {
    unsigned char buffer[LWS_PRE + 512];
    char *payload = (char *)buffer + LWS_PRE;
    int length;
    if (rpc_mode) {
        char pad[201];
        memset(pad, 'x', 200);
        pad[200] = 0;
        length = snprintf(payload, 512, "{\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"params\":[\"%s\"],\"id\":%ld}", pad, next_id++);
    } else {
        memset(payload, 'x', 256);
        length = 256;
    }
    return lws_write(wsi, (unsigned char *)payload, (size_t)length, LWS_WRITE_TEXT) < length ? -1 : 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    (void)user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        phase = 1;
        phase_start = now();
        phase_end = phase_start + seconds_per_phase;
        to_send = WINDOW;
        lws_callback_on_writable(wsi);
        break;
    case LWS_CALLBACK_CLIENT_WRITEABLE:
        while (to_send > 0) {
            if (write_one(wsi)) return -1;
            to_send--;
            in_flight++;
            if (phase == 2) sent_at = now();
            if (to_send > 0 && lws_send_pipe_choked(wsi)) { lws_callback_on_writable(wsi); break; }
        }
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE:
        if (!lws_is_final_fragment(wsi)) break;
        if (rpc_mode && !memmem(in, len, "\"result\"", 8)) errors++;
        in_flight--;
        double t = now();
        if (phase == 1) {
            received++;
            last_receipt = t;
            if (t < phase_end) { to_send++; lws_callback_on_writable(wsi); }
            else if (in_flight == 0) {
                phase = 2;
                phase_end = t + seconds_per_phase / 2;
                to_send = 1;
                lws_callback_on_writable(wsi);
            }
        } else if (phase == 2) {
            samples[sample_count++] = (t - sent_at) * 1e6;
            if (t < phase_end && sample_count < MAX_SAMPLES) { to_send = 1; lws_callback_on_writable(wsi); }
            else { done = 1; return -1; }
        }
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        fprintf(stderr, "connection error: %s\n", in ? (const char *)in : "?");
        failed = 1;
        done = 1;
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        done = 1;
        break;
    default:
        break;
    }
    return 0;
}

static struct lws_protocols protocols[] = {
    {"echo", callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: echo_client ws://HOST:PORT/PATH raw|rpc SECONDS\n"); return 64; }
    rpc_mode = strcmp(argv[2], "rpc") == 0;
    seconds_per_phase = atof(argv[3]);
    char url[512];
    snprintf(url, sizeof url, "%s", argv[1]);
    const char *scheme, *address, *path;
    int port;
    if (lws_parse_uri(url, &scheme, &address, &port, &path)) { fprintf(stderr, "bad URL\n"); return 64; }
    char full_path[520];
    snprintf(full_path, sizeof full_path, "/%s", path);

    lws_set_log_level(LLL_ERR, NULL);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.gid = -1;
    info.uid = -1;
    struct lws_context *context = lws_create_context(&info);
    if (!context) { fprintf(stderr, "lws_create_context failed\n"); return 1; }
    struct lws_client_connect_info connect;
    memset(&connect, 0, sizeof connect);
    connect.context = context;
    connect.address = address;
    connect.port = port;
    connect.path = full_path;
    connect.host = address;
    connect.origin = address;
    connect.protocol = NULL;
    connect.local_protocol_name = "echo";
    if (!lws_client_connect_via_info(&connect)) { fprintf(stderr, "connect failed\n"); return 1; }
    double give_up = now() + 4 * seconds_per_phase + 10;
    while (!done && now() < give_up && lws_service(context, 0) >= 0) {}
    lws_context_destroy(context);
    if (failed || sample_count == 0) { fprintf(stderr, "no result\n"); return 1; }
    qsort(samples, (size_t)sample_count, sizeof samples[0], compare);
    double rate = received / (last_receipt - phase_start);
    printf("{\"errors\":%ld,\"msgs_per_s\":%.0f,\"rtt_p50_us\":%.1f,\"rtt_p99_us\":%.1f,\"samples\":%d}\n",
           errors, rate, percentile(50), percentile(99), sample_count);
    return 0;
}
