#include <libsecret/secret.h>

// libsecret's schema is a struct with a fixed array and its calls take attributes as C varargs,
// neither of which Swift can write: the schemas and their three calls are spelled here.

// Version 1 of the schemas the reader stores account secrets under; a later change of the
// attributes makes a new version, so secrets stored by an older reader stay findable.
#define CSECRET_ACCOUNT_ATTRIBUTES                          \
    {                                                       \
        { "version", SECRET_SCHEMA_ATTRIBUTE_INTEGER },     \
        { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },      \
        { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },       \
        { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },         \
        { NULL, 0 },                                        \
    }

// An account's password.
static inline const SecretSchema *csecret_account_schema(void) {
    static const SecretSchema schema = { "io.github.refreshgtk.FeedReader.Account", SECRET_SCHEMA_NONE, CSECRET_ACCOUNT_ATTRIBUTES };
    return &schema;
}

// A session token the server gave an account in exchange for its password (the Google Reader
// API's Auth): a schema of its own, so a lookup of the password never finds it.
static inline const SecretSchema *csecret_session_schema(void) {
    static const SecretSchema schema = { "io.github.refreshgtk.FeedReader.Session", SECRET_SCHEMA_NONE, CSECRET_ACCOUNT_ATTRIBUTES };
    return &schema;
}

static const gint csecret_schema_version = 1;

static inline gboolean csecret_store(const SecretSchema *schema, const gchar *label, const gchar *service, const gchar *server,
                                     const gchar *user, const gchar *secret, GError **error) {
    return secret_password_store_sync(schema, SECRET_COLLECTION_DEFAULT, label, secret, NULL, error,
                                      "version", csecret_schema_version, "service", service, "server", server, "user", user,
                                      NULL);
}

static inline gchar *csecret_lookup(const SecretSchema *schema, const gchar *service, const gchar *server, const gchar *user,
                                    GError **error) {
    return secret_password_lookup_sync(schema, NULL, error, "version", csecret_schema_version,
                                       "service", service, "server", server, "user", user, NULL);
}

static inline gboolean csecret_clear(const SecretSchema *schema, const gchar *service, const gchar *server, const gchar *user,
                                     GError **error) {
    return secret_password_clear_sync(schema, NULL, error, "version", csecret_schema_version,
                                      "service", service, "server", server, "user", user, NULL);
}
