#ifndef CLIBWEBSOCKETS_SHIM_H
#define CLIBWEBSOCKETS_SHIM_H
/* What Swift cannot import from libwebsockets.h on its own (docs/libwebsockets.md#shim). */
#include <libwebsockets.h>
#include <ev.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

/* The kernel thread id (gettid is not exported by every glibc Swift imports). */
static inline int clws_gettid(void) { return (int)syscall(SYS_gettid); }

/* LWS_PRE expands through the function-like macro _LWS_PAD(). */
static const size_t CLWS_PRE = LWS_PRE;

/* Options defined in terms of other macros are not imported. */
static const unsigned long long CLWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
static const unsigned long long CLWS_SERVER_OPTION_DISABLE_IPV6 = LWS_SERVER_OPTION_DISABLE_IPV6;
static const unsigned long long CLWS_SERVER_OPTION_VALIDATE_UTF8 = LWS_SERVER_OPTION_VALIDATE_UTF8;
static const unsigned long long CLWS_SERVER_OPTION_EXPLICIT_VHOSTS = LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
static const unsigned long long CLWS_SERVER_OPTION_DISABLE_OS_CA_CERTS = LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;

/* libev, for the service thread's foreign loop (LWS_SERVER_OPTION_LIBEV): epoll on Linux. */
static const unsigned long long CLWS_SERVER_OPTION_LIBEV = LWS_SERVER_OPTION_LIBEV;
static inline void *clws_ev_loop_new(void) { return ev_loop_new(EVFLAG_AUTO); }
static inline void clws_ev_run(void *loop) { ev_run((struct ev_loop *)loop, 0); }
static inline void clws_ev_break(void *loop) { ev_break((struct ev_loop *)loop, EVBREAK_ALL); }
static inline void clws_ev_loop_destroy(void *loop) { ev_loop_destroy((struct ev_loop *)loop); }

/* A repeating libev timer that wakes lws through lws_cancel_service, so that lws services its ripe timers (close
   acks, handshake timeouts) at most one period late. lws 4.1.6's libev plugin re-arms its own timer with
   ev_timer_set on an active watcher, which libev ignores: an earlier timer set while a later one is armed waited
   for the later one or for unrelated socket traffic (docs/libwebsockets.md, "Timers under libev"). */
typedef struct clws_ev_tick {
    ev_timer timer; /* must stay first */
    struct lws_context *context;
} clws_ev_tick;

static void clws_ev_tick_fired(struct ev_loop *loop, ev_timer *timer, int revents) {
    (void)loop; (void)revents;
    lws_cancel_service(((clws_ev_tick *)timer)->context);
}

static inline void *clws_ev_tick_start(void *loop, struct lws_context *context, double seconds) {
    clws_ev_tick *tick = (clws_ev_tick *)calloc(1, sizeof(clws_ev_tick));
    if (!tick) return NULL;
    tick->context = context;
    ev_timer_init(&tick->timer, clws_ev_tick_fired, seconds, seconds);
    ev_timer_start((struct ev_loop *)loop, &tick->timer);
    return tick;
}

static inline void clws_ev_tick_stop(void *loop, void *tick) {
    if (!tick) return;
    ev_timer_stop((struct ev_loop *)loop, &((clws_ev_tick *)tick)->timer);
    free(tick);
}

/* A libev prepare watcher: `fire(owner)` runs once per turn of the loop, after the callbacks of the events the last
   poll returned and before the loop polls again (the service thread flushes the writes those callbacks queued). */
typedef struct clws_ev_prepare {
    ev_prepare watcher; /* must stay first */
    void (*fire)(void *);
    void *owner;
} clws_ev_prepare;

static void clws_ev_prepare_fired(struct ev_loop *loop, ev_prepare *watcher, int revents) {
    (void)loop; (void)revents;
    clws_ev_prepare *prepare = (clws_ev_prepare *)watcher;
    prepare->fire(prepare->owner);
}

static inline void *clws_ev_prepare_start(void *loop, void (*fire)(void *), void *owner) {
    clws_ev_prepare *prepare = (clws_ev_prepare *)calloc(1, sizeof(clws_ev_prepare));
    if (!prepare) return NULL;
    prepare->fire = fire;
    prepare->owner = owner;
    ev_prepare_init(&prepare->watcher, clws_ev_prepare_fired);
    ev_prepare_start((struct ev_loop *)loop, &prepare->watcher);
    return prepare;
}

static inline void clws_ev_prepare_stop(void *loop, void *prepare) {
    if (!prepare) return;
    ev_prepare_stop((struct ev_loop *)loop, &((clws_ev_prepare *)prepare)->watcher);
    free(prepare);
}

/* lws_sul timers hand back only the lws_sorted_usec_list_t*; embed it first, followed by an owner pointer. */
typedef struct clws_timer {
    lws_sorted_usec_list_t sul; /* must stay first */
    void *owner;
} clws_timer;

static inline void *clws_timer_owner(lws_sorted_usec_list_t *sul) {
    return ((clws_timer *)sul)->owner;
}

/* TLS policy and certificate reload on an SSL_CTX lws made (docs/libwebsockets.md#tls). The OpenSSL calls here are
   macros (SSL_CTX_set_min_proto_version, SSL_CTX_clear_chain_certs, ...) that Swift does not import. Each returns 0,
   or -1 with a one-line reason in err. */

static inline void clws_tls_error(char *err, size_t err_len, const char *what) {
    unsigned long code = ERR_get_error();
    char detail[200] = "";
    if (code) ERR_error_string_n(code, detail, sizeof(detail));
    snprintf(err, err_len, code ? "%s (%s)" : "%s", what, detail);
    ERR_clear_error();
}

/* TLS 1.2 at least; ciphers12 for TLS 1.2 (an OpenSSL cipher string), suites13 for TLS 1.3. */
static inline int clws_tls_apply_policy(SSL_CTX *ctx, const char *ciphers12, const char *suites13,
                                        char *err, size_t err_len) {
    if (SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) != 1) {
        clws_tls_error(err, err_len, "cannot require TLS 1.2");
        return -1;
    }
    if (SSL_CTX_set_cipher_list(ctx, ciphers12) != 1) {
        clws_tls_error(err, err_len, "no usable TLS 1.2 cipher in the list");
        return -1;
    }
    if (SSL_CTX_set_ciphersuites(ctx, suites13) != 1) {
        clws_tls_error(err, err_len, "no usable TLS 1.3 suite in the list");
        return -1;
    }
    return 0;
}

/* Never prompts for a passphrase (OpenSSL's default callback reads the terminal): an encrypted key fails. */
static inline int clws_no_passphrase(char *buf, int size, int rwflag, void *u) {
    (void)buf; (void)size; (void)rwflag; (void)u;
    return 0;
}

/* Replaces the certificate chain and private key of a server SSL_CTX with the PEM text given (the leaf first,
   then its chain). Everything is parsed and the key checked against the certificate before the context is
   touched, so a failure leaves it serving what it served. Handshakes after it get the new certificate; SSL objects
   made before (open connections, handshakes under way) keep their copy. A key of another type than the current
   one (RSA for ECDSA, say) is refused: OpenSSL keeps one certificate per key type and would keep the old one too. */
static inline int clws_tls_replace_certificate(SSL_CTX *ctx, const char *cert, int cert_len, const char *key,
                                               int key_len, char *err, size_t err_len) {
    int result = -1;
    BIO *cert_bio = BIO_new_mem_buf(cert, cert_len), *key_bio = BIO_new_mem_buf(key, key_len);
    STACK_OF(X509) *chain = sk_X509_new_null();
    X509 *leaf = NULL;
    EVP_PKEY *pkey = NULL;
    EVP_PKEY *current = SSL_CTX_get0_privatekey(ctx);
    ERR_clear_error();
    if (!cert_bio || !key_bio || !chain) {
        clws_tls_error(err, err_len, "out of memory");
        goto done;
    }
    leaf = PEM_read_bio_X509_AUX(cert_bio, NULL, clws_no_passphrase, NULL);
    if (!leaf) {
        clws_tls_error(err, err_len, "no PEM certificate in the certificate file");
        goto done;
    }
    for (;;) {
        X509 *ca = PEM_read_bio_X509(cert_bio, NULL, clws_no_passphrase, NULL);
        if (!ca) break;
        if (!sk_X509_push(chain, ca)) {
            X509_free(ca);
            clws_tls_error(err, err_len, "out of memory");
            goto done;
        }
    }
    ERR_clear_error(); /* the end of the file reads as an error */
    pkey = PEM_read_bio_PrivateKey(key_bio, NULL, clws_no_passphrase, NULL);
    if (!pkey) {
        clws_tls_error(err, err_len, "no unencrypted PEM private key in the key file");
        goto done;
    }
    if (X509_check_private_key(leaf, pkey) != 1) {
        clws_tls_error(err, err_len, "the private key does not belong to the certificate");
        goto done;
    }
    if (current && EVP_PKEY_get_base_id(current) != EVP_PKEY_get_base_id(pkey)) {
        snprintf(err, err_len, "the key type changed (%s to %s): restart to change it",
                 OBJ_nid2sn(EVP_PKEY_get_base_id(current)), OBJ_nid2sn(EVP_PKEY_get_base_id(pkey)));
        goto done;
    }
    if (SSL_CTX_use_certificate(ctx, leaf) != 1 || SSL_CTX_use_PrivateKey(ctx, pkey) != 1
        || SSL_CTX_clear_chain_certs(ctx) != 1) {
        clws_tls_error(err, err_len, "OpenSSL refused the certificate");
        goto done;
    }
    for (int i = 0; i < sk_X509_num(chain); i++) {
        if (SSL_CTX_add1_chain_cert(ctx, sk_X509_value(chain, i)) != 1) {
            clws_tls_error(err, err_len, "OpenSSL refused a chain certificate");
            goto done;
        }
    }
    if (SSL_CTX_check_private_key(ctx) != 1) {
        clws_tls_error(err, err_len, "the private key does not belong to the certificate");
        goto done;
    }
    result = 0;
done:
    EVP_PKEY_free(pkey);
    X509_free(leaf);
    sk_X509_pop_free(chain, X509_free);
    BIO_free(cert_bio);
    BIO_free(key_bio);
    return result;
}

/* Copies a header of the upgrade request into buf (NUL-terminated); returns its length or -1 when absent. */
static inline int clws_copy_header(struct lws *wsi, enum lws_token_indexes token, char *buf, int len) {
    if (lws_hdr_total_length(wsi, token) <= 0) return -1;
    return lws_hdr_copy(wsi, buf, len, token);
}
#endif
