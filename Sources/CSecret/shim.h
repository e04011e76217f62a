#include <libsecret/secret.h>

// libsecret's schema is a struct with a fixed array and its calls take attributes as C varargs,
// neither of which Swift can write: the account schema and its three calls are spelled here.

// Version 1 of the schema the reader stores account passwords under; a later change of the
// attributes makes a new version, so passwords stored by an older reader stay findable.
static inline const SecretSchema *csecret_account_schema(void) {
    static const SecretSchema schema = {
        "io.github.refreshgtk.FeedReader.Account", SECRET_SCHEMA_NONE,
        {
            { "version", SECRET_SCHEMA_ATTRIBUTE_INTEGER },
            { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "user", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        },
    };
    return &schema;
}

static const gint csecret_schema_version = 1;

static inline gboolean csecret_store(const gchar *label, const gchar *service, const gchar *server, const gchar *user,
                                     const gchar *password, GError **error) {
    return secret_password_store_sync(csecret_account_schema(), SECRET_COLLECTION_DEFAULT, label, password, NULL, error,
                                      "version", csecret_schema_version, "service", service, "server", server, "user", user,
                                      NULL);
}

static inline gchar *csecret_lookup(const gchar *service, const gchar *server, const gchar *user, GError **error) {
    return secret_password_lookup_sync(csecret_account_schema(), NULL, error, "version", csecret_schema_version,
                                       "service", service, "server", server, "user", user, NULL);
}

static inline gboolean csecret_clear(const gchar *service, const gchar *server, const gchar *user, GError **error) {
    return secret_password_clear_sync(csecret_account_schema(), NULL, error, "version", csecret_schema_version,
                                      "service", service, "server", server, "user", user, NULL);
}
