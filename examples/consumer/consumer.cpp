// The C++ consumer (tests/lib/consumers.sh): the headers work from C++.
#include <sysdesc/sysdesc.h>

#include <cstdio>
#include <memory>
#include <string>

int main()
{
    std::unique_ptr<dlti_context, decltype(&dlti_context_free)> ctx(dlti_context_new(),
                                                                      dlti_context_free);
    dlti_error_t err;
    sysdesc_system sys;
    if (!ctx || sysdesc_system_load(ctx.get(), "nvidia/h100-sxm", nullptr, &sys, &err) < 0) {
        std::fprintf(stderr, "load failed\n");
        return 1;
    }
    const std::string path[] = {"GPU", "num_compute_units"};
    dlti_key keys[2];
    for (int i = 0; i < 2; i++)
        keys[i] = dlti_key_string(ctx.get(), path[i].data(), path[i].size());
    int64_t n = 0;
    const dlti_attr *v = dlti_attr_query(sys.spec, keys, 2, &err);
    if (!v || dlti_attr_get_int64(v, &n, &err) < 0) {
        std::fprintf(stderr, "query: %s\n", err.text);
        return 1;
    }
    std::printf("%s %lld\n", sysdesc_version_string(), static_cast<long long>(n));
    return 0;
}
