/*
 * evlib_study: does an lws event-library loop (libev/epoll, libuv, glib) beat the default poll() loop
 * at 1,000 connections, and how would our one service thread drive it? (lws 4.1.6, Debian plugins)
 *
 *   evlib_study server LOOP [foreign]      echo server on 127.0.0.1:ephemeral, one service thread that owns
 *                                          the context (as Sources/WebSocketTransport does); prints
 *                                          "ws://127.0.0.1:PORT/" then serves until SIGTERM/SIGINT.
 *   evlib_study wake LOOP [foreign] N      in-process: a second thread calls lws_cancel_service N times,
 *                                          each time waiting for LWS_CALLBACK_EVENT_WAIT_CANCELLED, then
 *                                          N times back to back; prints one JSON line and exits.
 *   evlib_study idle URL N                 client holding N idle WebSocket connections open (poll loop);
 *                                          prints "ready N" once all are established, runs until SIGTERM.
 *   evlib_study active URL SECONDS         one connection: 32 in flight for SECONDS, then strict ping-pong
 *                                          for SECONDS/2; 256-byte text frames; prints one JSON line.
 *
 * LOOP is poll | ev | uv | glib. "foreign" makes the service thread create the event loop itself, pass it in
 * info.foreign_loops and run it (ev_run / uv_run / g_main_loop_run) instead of calling lws_service().
 * Without "foreign" the service thread calls lws_service(context, 0) in a loop, as today; under an event
 * lib that call blocks inside the library's run function until the loop is broken.
 *
 * EVS_UNBLOCKED=1 (server only): leave SIGINT/SIGTERM unblocked and just join the service thread, to see which
 * signal handlers the loop installs (an internal libev/glib loop catches SIGINT; libuv also SIGTERM, SIGHUP,
 * SIGSEGV and SIGFPE).
 *
 * Stopping: main blocks SIGINT/SIGTERM in every thread and sigwait()s; then it sets `stopping` and calls
 * lws_cancel_service() under the context lock. The service thread, in EVENT_WAIT_CANCELLED, sees `stopping`:
 *   poll:              nothing to do; lws_service() returns and the loop condition ends the loop.
 *   internal evlib:    calls lws_context_destroy() from inside the callback (lws's own minimal examples stop
 *                      an event-lib loop that way); lws breaks its loop, lws_service() returns, and the
 *                      thread calls lws_context_destroy() again to finish.
 *   foreign evlib:     ev_break / uv_stop / g_main_loop_quit; after the run function returns the thread calls
 *                      lws_context_destroy(), then lets the loop finish closing handles and frees it.
 */
#define _GNU_SOURCE
#include <libwebsockets.h>
#include <ev.h>
#include <uv.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* glib: only the runtime library is installed (no libglib2.0-dev), so declare the four calls we need. */
typedef struct _GMainLoop GMainLoop;
typedef struct _GMainContext GMainContext;
extern GMainLoop *g_main_loop_new(GMainContext *context, int is_running);
extern void g_main_loop_run(GMainLoop *loop);
extern void g_main_loop_quit(GMainLoop *loop);
extern void g_main_loop_unref(GMainLoop *loop);

enum { LOOP_POLL, LOOP_EV, LOOP_UV, LOOP_GLIB };
static const char *loop_names[] = {"poll", "ev", "uv", "glib"};

#define FRAME 256
#define WINDOW 32
#define MAX_SAMPLES 200000

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static double percentile(double *v, int n, double p) {
    if (n == 0) return 0;
    int rank = (int)(p / 100 * n + 0.999999) - 1;
    if (rank < 0) rank = 0;
    if (rank >= n) rank = n - 1;
    return v[rank];
}
static void raise_nofile(void) {
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
    }
}

/* ------------------------------------------------------------------------------------------------ server */

static int loop_kind, use_foreign;
static struct lws_context *context;                     /* owned by the service thread */
static pthread_mutex_t context_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lws_context *cancel_target;               /* guarded by context_lock: NULL once destroying */
static atomic_int stopping;
static struct ev_loop *foreign_ev;
static uv_loop_t foreign_uv;
static GMainLoop *foreign_glib;
static int destroyed_inside;                            /* internal evlib: destroy already called in callback */
static long established, closed;
static int port = -1;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int ready;                                       /* 1 = context up, -1 = failed */

/* wake test state */
static atomic_long cancelled_count;
static atomic_long cancelled_stamp_ns;                  /* CLOCK_MONOTONIC ns of the latest WAIT_CANCELLED */
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_cond = PTHREAD_COND_INITIALIZER;

static long mono_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

struct reply { struct reply *next; size_t length; unsigned char bytes[]; };
struct session { struct reply *head, *tail; size_t received; unsigned char message[4096]; };

static void stop_loop_from_callback(void) {
    if (use_foreign) {
        switch (loop_kind) {
        case LOOP_EV: ev_break(foreign_ev, EVBREAK_ALL); break;
        case LOOP_UV: uv_stop(&foreign_uv); break;
        case LOOP_GLIB: g_main_loop_quit(foreign_glib); break;
        }
    } else if (loop_kind != LOOP_POLL && !destroyed_inside) {
        destroyed_inside = 1;
        pthread_mutex_lock(&context_lock);
        cancel_target = NULL;
        pthread_mutex_unlock(&context_lock);
        lws_context_destroy(context);
    }
}

static int server_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct session *s = user;
    switch (reason) {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        atomic_store(&cancelled_stamp_ns, mono_ns());
        atomic_fetch_add(&cancelled_count, 1);
        pthread_mutex_lock(&wake_lock);
        pthread_cond_signal(&wake_cond);
        pthread_mutex_unlock(&wake_lock);
        if (atomic_load(&stopping)) stop_loop_from_callback();
        break;
    case LWS_CALLBACK_ESTABLISHED:
        s->head = s->tail = NULL;
        s->received = 0;
        established++;
        break;
    case LWS_CALLBACK_RECEIVE:
        if (s->received + len > sizeof s->message) return -1;
        memcpy(s->message + s->received, in, len);
        s->received += len;
        if (lws_is_final_fragment(wsi)) {
            struct reply *r = malloc(sizeof *r + LWS_PRE + s->received);
            if (!r) return -1;
            r->next = NULL;
            r->length = s->received;
            memcpy(r->bytes + LWS_PRE, s->message, s->received);
            if (s->tail) s->tail->next = r; else s->head = r;
            s->tail = r;
            s->received = 0;
            lws_callback_on_writable(wsi);
        }
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
        closed++;
        while (s->head) { struct reply *r = s->head; s->head = r->next; free(r); }
        break;
    default:
        break;
    }
    return 0;
}

static struct lws_protocols server_protocols[] = {
    {"echo", server_callback, sizeof(struct session), 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static void *service_thread(void *unused) {
    (void)unused;
    void *loops[1] = {NULL};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = 0;
    info.iface = "127.0.0.1";
    info.protocols = server_protocols;
    info.gid = -1;
    info.uid = -1;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
    switch (loop_kind) {
    case LOOP_EV: info.options |= LWS_SERVER_OPTION_LIBEV; break;
    case LOOP_UV: info.options |= LWS_SERVER_OPTION_LIBUV; break;
    case LOOP_GLIB: info.options |= LWS_SERVER_OPTION_GLIB; break;
    }
    if (use_foreign) {
        switch (loop_kind) {
        case LOOP_EV: foreign_ev = ev_loop_new(EVFLAG_AUTO); loops[0] = foreign_ev; break;
        case LOOP_UV: uv_loop_init(&foreign_uv); loops[0] = &foreign_uv; break;
        case LOOP_GLIB: foreign_glib = g_main_loop_new(NULL, 0); loops[0] = foreign_glib; break;
        }
        info.foreign_loops = loops;
    }
    context = lws_create_context(&info);
    pthread_mutex_lock(&ready_lock);
    if (context) {
        port = lws_get_vhost_listen_port(lws_get_vhost_by_name(context, "default"));
        pthread_mutex_lock(&context_lock);
        cancel_target = context;
        pthread_mutex_unlock(&context_lock);
        ready = 1;
    } else ready = -1;
    pthread_cond_broadcast(&ready_cond);
    pthread_mutex_unlock(&ready_lock);
    if (!context) return NULL;

    if (use_foreign) {
        switch (loop_kind) {
        case LOOP_EV: ev_run(foreign_ev, 0); break;
        case LOOP_UV: uv_run(&foreign_uv, UV_RUN_DEFAULT); break;
        case LOOP_GLIB: g_main_loop_run(foreign_glib); break;
        }
    } else {
        while (!atomic_load(&stopping)) {
            if (lws_service(context, 0) < 0) break;
        }
    }
    pthread_mutex_lock(&context_lock);
    cancel_target = NULL;
    pthread_mutex_unlock(&context_lock);
    lws_context_destroy(context);   /* internal evlib: second call finishes what the in-callback call began */
    if (use_foreign) {
        switch (loop_kind) {
        case LOOP_EV: ev_loop_destroy(foreign_ev); break;
        case LOOP_UV: {
            int spins = 0;
            while (uv_run(&foreign_uv, UV_RUN_NOWAIT) && spins < 1000) spins++;
            int rc = uv_loop_close(&foreign_uv);
            if (rc) fprintf(stderr, "uv_loop_close: %s after %d spins\n", uv_strerror(rc), spins);
            break;
        }
        case LOOP_GLIB: g_main_loop_unref(foreign_glib); break;
        }
    }
    return NULL;
}

static int parse_loop(const char *name) {
    for (int k = 0; k < 4; k++) if (!strcmp(name, loop_names[k])) return k;
    fprintf(stderr, "unknown loop %s\n", name);
    exit(64);
}

static pthread_t start_service(void) {
    pthread_t thread;
    pthread_create(&thread, NULL, service_thread, NULL);
    pthread_mutex_lock(&ready_lock);
    while (!ready) pthread_cond_wait(&ready_cond, &ready_lock);
    pthread_mutex_unlock(&ready_lock);
    if (ready < 0) { fprintf(stderr, "lws_create_context failed\n"); exit(1); }
    return thread;
}

static void request_stop(pthread_t thread) {
    atomic_store(&stopping, 1);
    pthread_mutex_lock(&context_lock);
    if (cancel_target) lws_cancel_service(cancel_target);
    pthread_mutex_unlock(&context_lock);
    pthread_join(thread, NULL);
}

static int run_server(void) {
    if (getenv("EVS_UNBLOCKED")) {
        /* Signals left alone, as in an app that never touches them: does SIGINT still end the process?
         * (A non-interactive shell starts background jobs with SIGINT ignored: restore the default first.) */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        pthread_t thread = start_service();
        printf("ws://127.0.0.1:%d/\n", port);
        fflush(stdout);
        pthread_join(thread, NULL);
        fprintf(stderr, "server %s%s: service thread returned\n", loop_names[loop_kind], use_foreign ? " foreign" : "");
        return 0;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);   /* inherited by the service thread */
    pthread_t thread = start_service();
    printf("ws://127.0.0.1:%d/\n", port);
    fflush(stdout);
    int signal_number;
    sigwait(&set, &signal_number);
    request_stop(thread);
    fprintf(stderr, "server %s%s: stopped cleanly, established %ld closed %ld wait_cancelled %ld\n",
            loop_names[loop_kind], use_foreign ? " foreign" : "", established, closed, atomic_load(&cancelled_count));
    return 0;
}

static int run_wake(long n) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_t thread = start_service();
    usleep(100000);
    /* 1: one at a time. Wait for the callback, let the loop go back to sleep, then measure the next wake. */
    double *lat = malloc(sizeof(double) * (size_t)n);
    long missed = 0;
    for (long i = 0; i < n; i++) {
        long before = atomic_load(&cancelled_count);
        usleep(50);   /* the service thread is asleep in poll/epoll_wait/... again */
        long t0 = mono_ns();
        pthread_mutex_lock(&context_lock);
        lws_cancel_service(cancel_target);
        pthread_mutex_unlock(&context_lock);
        pthread_mutex_lock(&wake_lock);
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 1;
        while (atomic_load(&cancelled_count) == before)
            if (pthread_cond_timedwait(&wake_cond, &wake_lock, &deadline) == ETIMEDOUT) break;
        pthread_mutex_unlock(&wake_lock);
        if (atomic_load(&cancelled_count) == before) { missed++; lat[i] = 1e6; continue; }
        lat[i] = (double)(atomic_load(&cancelled_stamp_ns) - t0) / 1000.0;
    }
    long sequential_callbacks = atomic_load(&cancelled_count);
    qsort(lat, (size_t)n, sizeof lat[0], compare);
    /* 2: back to back, no waiting: how many callbacks, and does the last one arrive? */
    long before = atomic_load(&cancelled_count);
    double t0 = now();
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&context_lock);
        lws_cancel_service(cancel_target);
        pthread_mutex_unlock(&context_lock);
    }
    double t1 = now();
    usleep(200000);
    long burst_callbacks = atomic_load(&cancelled_count) - before;
    printf("{\"loop\":\"%s%s\",\"n\":%ld,\"sequential_callbacks\":%ld,\"missed\":%ld,\"wake_p50_us\":%.1f,"
           "\"wake_p99_us\":%.1f,\"burst_calls_per_s\":%.0f,\"burst_callbacks\":%ld}\n",
           loop_names[loop_kind], use_foreign ? "-foreign" : "", n, sequential_callbacks, missed,
           percentile(lat, (int)n, 50), percentile(lat, (int)n, 99), n / (t1 - t0), burst_callbacks);
    fflush(stdout);
    free(lat);
    request_stop(thread);
    fprintf(stderr, "wake %s%s: stopped cleanly\n", loop_names[loop_kind], use_foreign ? " foreign" : "");
    return missed ? 1 : 0;
}

/* ------------------------------------------------------------------------------------------------ clients */

static char client_address[256], client_path[300];
static int client_port;
static struct lws_context *client_context;
static volatile sig_atomic_t client_stop;
static void on_signal(int number) { (void)number; client_stop = 1; }

/* idle */
static long idle_target, idle_started, idle_established, idle_failed, idle_closed;
static int idle_ready_printed;

static int connect_one(struct lws_protocols *protocols) {
    struct lws_client_connect_info ci;
    memset(&ci, 0, sizeof ci);
    ci.context = client_context;
    ci.address = client_address;
    ci.port = client_port;
    ci.path = client_path;
    ci.host = client_address;
    ci.origin = client_address;
    ci.local_protocol_name = protocols[0].name;
    return lws_client_connect_via_info(&ci) ? 0 : -1;
}

static struct lws_protocols idle_protocols[];
static void idle_top_up(void) {
    while (idle_started < idle_target && idle_started - idle_established - idle_failed < 64) {
        idle_started++;
        if (connect_one(idle_protocols)) idle_failed++;
    }
}
static int idle_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    (void)wsi; (void)user; (void)len;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        idle_established++;
        idle_top_up();
        if (idle_established == idle_target && !idle_ready_printed) {
            idle_ready_printed = 1;
            printf("ready %ld\n", idle_established);
            fflush(stdout);
        }
        break;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        fprintf(stderr, "idle: connection error: %s\n", in ? (const char *)in : "?");
        idle_failed++;
        idle_top_up();
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        idle_closed++;
        break;
    default:
        break;
    }
    return 0;
}
static struct lws_protocols idle_protocols[] = {
    {"echo", idle_callback, 0, 1024, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* active */
static int phase, done, failed;
static double seconds_per_phase, phase_start, phase_end, last_receipt, sent_at;
static long to_send, in_flight, received;
static double *samples;
static int sample_count;

static int active_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    (void)user; (void)len;
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
            unsigned char buffer[LWS_PRE + FRAME];
            memset(buffer + LWS_PRE, 'x', FRAME);
            if (lws_write(wsi, buffer + LWS_PRE, FRAME, LWS_WRITE_TEXT) < FRAME) return -1;
            to_send--;
            in_flight++;
            if (phase == 2) sent_at = now();
            if (to_send > 0 && lws_send_pipe_choked(wsi)) { lws_callback_on_writable(wsi); break; }
        }
        break;
    case LWS_CALLBACK_CLIENT_RECEIVE: {
        if (!lws_is_final_fragment(wsi)) break;
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
    }
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        fprintf(stderr, "active: connection error: %s\n", in ? (const char *)in : "?");
        failed = done = 1;
        break;
    case LWS_CALLBACK_CLIENT_CLOSED:
        done = 1;
        break;
    default:
        break;
    }
    return 0;
}
static struct lws_protocols active_protocols[] = {
    {"echo", active_callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

static int client_setup(const char *url, struct lws_protocols *protocols) {
    char copy[512];
    snprintf(copy, sizeof copy, "%s", url);
    const char *scheme, *address, *path;
    if (lws_parse_uri(copy, &scheme, &address, &client_port, &path)) { fprintf(stderr, "bad URL\n"); return -1; }
    snprintf(client_address, sizeof client_address, "%s", address);
    snprintf(client_path, sizeof client_path, "/%s", path);
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = protocols;
    info.gid = -1;
    info.uid = -1;
    client_context = lws_create_context(&info);
    return client_context ? 0 : -1;
}

static int run_idle(const char *url, long n) {
    if (client_setup(url, idle_protocols)) return 1;
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    idle_target = n;
    idle_top_up();
    while (!client_stop && lws_service(client_context, 0) >= 0) {}
    lws_context_destroy(client_context);
    fprintf(stderr, "idle: established %ld failed %ld closed-before-stop %ld\n", idle_established, idle_failed,
            idle_closed - idle_established);
    return 0;
}

static int run_active(const char *url, double seconds) {
    if (client_setup(url, active_protocols)) return 1;
    samples = malloc(sizeof(double) * MAX_SAMPLES);
    seconds_per_phase = seconds;
    if (connect_one(active_protocols)) { fprintf(stderr, "connect failed\n"); return 1; }
    double give_up = now() + 4 * seconds + 10;
    while (!done && now() < give_up && lws_service(client_context, 0) >= 0) {}
    lws_context_destroy(client_context);
    if (failed || sample_count == 0) { fprintf(stderr, "no result\n"); return 1; }
    qsort(samples, (size_t)sample_count, sizeof samples[0], compare);
    printf("{\"msgs_per_s\":%.0f,\"pipelined_msgs\":%ld,\"rtt_p50_us\":%.1f,\"rtt_p99_us\":%.1f,\"samples\":%d}\n",
           received / (last_receipt - phase_start), received, percentile(samples, sample_count, 50),
           percentile(samples, sample_count, 99), sample_count);
    return 0;
}

int main(int argc, char **argv) {
    raise_nofile();
    lws_set_log_level(LLL_ERR | LLL_WARN, NULL);
    if (argc >= 3 && !strcmp(argv[1], "server")) {
        loop_kind = parse_loop(argv[2]);
        use_foreign = argc >= 4 && !strcmp(argv[3], "foreign") && loop_kind != LOOP_POLL;
        return run_server();
    }
    if (argc >= 4 && !strcmp(argv[1], "wake")) {
        loop_kind = parse_loop(argv[2]);
        use_foreign = argc >= 5 && !strcmp(argv[3], "foreign") && loop_kind != LOOP_POLL;
        return run_wake(atol(argv[argc - 1]));
    }
    if (argc == 4 && !strcmp(argv[1], "idle")) return run_idle(argv[2], atol(argv[3]));
    if (argc == 4 && !strcmp(argv[1], "active")) return run_active(argv[2], atof(argv[3]));
    fprintf(stderr, "usage: evlib_study server LOOP [foreign] | wake LOOP [foreign] N | idle URL N | active URL SECONDS\n");
    return 64;
}
