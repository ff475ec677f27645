/* A program built against an installed sysdesc (tests/lib/consumers.sh):
 * loads a catalog entry and prints one answer. */
#include <sysdesc/sysdesc.h>

#include <stdio.h>

int main(void)
{
    dlti_context *ctx = dlti_context_new();
    dlti_error_t err;
    sysdesc_system sys;
    if (!ctx || sysdesc_system_load(ctx, "nvidia/h100-sxm", NULL, &sys, &err) < 0) {
        fprintf(stderr, "load: %s\n", ctx ? err.text : "out of memory");
        return 1;
    }
    const char *path[] = {"GPU", "num_compute_units"};
    dlti_key keys[2];
    for (int i = 0; i < 2; i++)
        keys[i] = dlti_key_string(ctx, path[i], __builtin_strlen(path[i]));
    int64_t n = 0;
    const dlti_attr *v = dlti_attr_query(sys.spec, keys, 2, &err);
    if (!v || dlti_attr_get_int64(v, &n, &err) < 0) {
        fprintf(stderr, "query: %s\n", err.text);
        return 1;
    }
    printf("%s %lld\n", sysdesc_version_string(), (long long)n);
    dlti_context_free(ctx);
    return 0;
}
