/* `sysdesc measure --device` through Vulkan compute: the loader opened
 * with dlopen, the kernels as SPIR-V words (measure_dev_spirv.c), one
 * compute pipeline each, every dispatch and copy timed by timestamp
 * queries where the queue has them.  Buffers live in device-local memory
 * and are filled and read back through host-visible staging buffers, which
 * are also the host side of the transfers.  The structures, entry points
 * and values are declared from the Vulkan specification (1.3), beside
 * those vk_api.h shares with the probe; no Vulkan header is needed. */
#include "measure_dev.h"
#include "probe_private.h"
#include "runtimes/vk_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct VkDevice_T *VkDevice;
typedef struct VkQueue_T *VkQueue;
typedef struct VkCommandBuffer_T *VkCommandBuffer;
/* Non-dispatchable handles: 64 bits on every platform. */
typedef uint64_t VkBuffer, VkDeviceMemory, VkCommandPool, VkFence, VkQueryPool, VkShaderModule,
    VkDescriptorSetLayout, VkPipelineLayout, VkDescriptorPool, VkDescriptorSet, VkPipeline;

enum {
    VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO = 2,
    VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO = 3,
    VK_STRUCTURE_TYPE_SUBMIT_INFO = 4,
    VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO = 5,
    VK_STRUCTURE_TYPE_FENCE_CREATE_INFO = 8,
    VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO = 11,
    VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO = 12,
    VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO = 16,
    VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO = 18,
    VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO = 29,
    VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO = 30,
    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO = 32,
    VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO = 33,
    VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO = 34,
    VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET = 35,
    VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO = 39,
    VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO = 40,
    VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO = 42,
    VK_STRUCTURE_TYPE_MEMORY_BARRIER = 46,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 = 1000059000,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES = 1000082000,
    VK_QUEUE_COMPUTE_BIT = 0x2,
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT = 0x1,
    VK_BUFFER_USAGE_TRANSFER_DST_BIT = 0x2,
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT = 0x20,
    VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT = 0x1,
    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT = 0x2,
    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT = 0x4,
    VK_MEMORY_PROPERTY_HOST_CACHED_BIT = 0x8,
    VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT = 0x2,
    VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT = 0x1,
    VK_QUERY_TYPE_TIMESTAMP = 2,
    VK_QUERY_RESULT_64_BIT = 0x1,
    VK_QUERY_RESULT_WAIT_BIT = 0x2,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER = 7,
    VK_SHADER_STAGE_COMPUTE_BIT = 0x20,
    VK_PIPELINE_BIND_POINT_COMPUTE = 1,
    VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT = 0x1,
    VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT = 0x2000,
    VK_PIPELINE_STAGE_HOST_BIT = 0x4000,
    VK_PIPELINE_STAGE_ALL_COMMANDS_BIT = 0x10000,
    VK_ACCESS_SHADER_WRITE_BIT = 0x40,
    VK_ACCESS_TRANSFER_WRITE_BIT = 0x1000,
    VK_ACCESS_HOST_READ_BIT = 0x2000,
    VK_ACCESS_MEMORY_READ_BIT = 0x8000,
    VK_ACCESS_MEMORY_WRITE_BIT = 0x10000,
    FEATURE_SHADER_FLOAT64 = 39, /* its index among VkPhysicalDeviceFeatures' 55 VkBool32 */
};
#define VK_WHOLE_SIZE (~(VkDeviceSize)0)

typedef struct VkPhysicalDeviceFeatures {
    VkBool32 f[55];
} VkPhysicalDeviceFeatures;
typedef struct VkPhysicalDeviceFeatures2 {
    int32_t sType;
    void *pNext;
    VkPhysicalDeviceFeatures features;
} VkPhysicalDeviceFeatures2;
typedef struct VkPhysicalDeviceShaderFloat16Int8Features {
    int32_t sType;
    void *pNext;
    VkBool32 shaderFloat16, shaderInt8;
} VkPhysicalDeviceShaderFloat16Int8Features;
typedef struct VkQueueFamilyProperties {
    VkFlags queueFlags;
    uint32_t queueCount, timestampValidBits;
    uint32_t minImageTransferGranularity[3];
} VkQueueFamilyProperties;
typedef struct VkDeviceQueueCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    uint32_t queueFamilyIndex, queueCount;
    const float *pQueuePriorities;
} VkDeviceQueueCreateInfo;
typedef struct VkDeviceCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    uint32_t queueCreateInfoCount;
    const VkDeviceQueueCreateInfo *pQueueCreateInfos;
    uint32_t enabledLayerCount;
    const char *const *ppEnabledLayerNames;
    uint32_t enabledExtensionCount;
    const char *const *ppEnabledExtensionNames;
    const VkPhysicalDeviceFeatures *pEnabledFeatures;
} VkDeviceCreateInfo;
typedef struct VkBufferCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    VkDeviceSize size;
    VkFlags usage;
    int32_t sharingMode;
    uint32_t queueFamilyIndexCount;
    const uint32_t *pQueueFamilyIndices;
} VkBufferCreateInfo;
typedef struct VkMemoryRequirements {
    VkDeviceSize size, alignment;
    uint32_t memoryTypeBits;
} VkMemoryRequirements;
typedef struct VkMemoryAllocateInfo {
    int32_t sType;
    const void *pNext;
    VkDeviceSize allocationSize;
    uint32_t memoryTypeIndex;
} VkMemoryAllocateInfo;
typedef struct VkCommandPoolCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    uint32_t queueFamilyIndex;
} VkCommandPoolCreateInfo;
typedef struct VkCommandBufferAllocateInfo {
    int32_t sType;
    const void *pNext;
    VkCommandPool commandPool;
    int32_t level;
    uint32_t commandBufferCount;
} VkCommandBufferAllocateInfo;
typedef struct VkCommandBufferBeginInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    const void *pInheritanceInfo;
} VkCommandBufferBeginInfo;
typedef struct VkSubmitInfo {
    int32_t sType;
    const void *pNext;
    uint32_t waitSemaphoreCount;
    const uint64_t *pWaitSemaphores;
    const VkFlags *pWaitDstStageMask;
    uint32_t commandBufferCount;
    const VkCommandBuffer *pCommandBuffers;
    uint32_t signalSemaphoreCount;
    const uint64_t *pSignalSemaphores;
} VkSubmitInfo;
typedef struct VkFenceCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
} VkFenceCreateInfo;
typedef struct VkQueryPoolCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    int32_t queryType;
    uint32_t queryCount;
    VkFlags pipelineStatistics;
} VkQueryPoolCreateInfo;
typedef struct VkShaderModuleCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    size_t codeSize;
    const uint32_t *pCode;
} VkShaderModuleCreateInfo;
typedef struct VkDescriptorSetLayoutBinding {
    uint32_t binding;
    int32_t descriptorType;
    uint32_t descriptorCount;
    VkFlags stageFlags;
    const void *pImmutableSamplers;
} VkDescriptorSetLayoutBinding;
typedef struct VkDescriptorSetLayoutCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    uint32_t bindingCount;
    const VkDescriptorSetLayoutBinding *pBindings;
} VkDescriptorSetLayoutCreateInfo;
typedef struct VkPushConstantRange {
    VkFlags stageFlags;
    uint32_t offset, size;
} VkPushConstantRange;
typedef struct VkPipelineLayoutCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    uint32_t setLayoutCount;
    const VkDescriptorSetLayout *pSetLayouts;
    uint32_t pushConstantRangeCount;
    const VkPushConstantRange *pPushConstantRanges;
} VkPipelineLayoutCreateInfo;
typedef struct VkDescriptorPoolSize {
    int32_t type;
    uint32_t descriptorCount;
} VkDescriptorPoolSize;
typedef struct VkDescriptorPoolCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    uint32_t maxSets, poolSizeCount;
    const VkDescriptorPoolSize *pPoolSizes;
} VkDescriptorPoolCreateInfo;
typedef struct VkDescriptorSetAllocateInfo {
    int32_t sType;
    const void *pNext;
    VkDescriptorPool descriptorPool;
    uint32_t descriptorSetCount;
    const VkDescriptorSetLayout *pSetLayouts;
} VkDescriptorSetAllocateInfo;
typedef struct VkDescriptorBufferInfo {
    VkBuffer buffer;
    VkDeviceSize offset, range;
} VkDescriptorBufferInfo;
typedef struct VkWriteDescriptorSet {
    int32_t sType;
    const void *pNext;
    VkDescriptorSet dstSet;
    uint32_t dstBinding, dstArrayElement, descriptorCount;
    int32_t descriptorType;
    const void *pImageInfo;
    const VkDescriptorBufferInfo *pBufferInfo;
    const void *pTexelBufferView;
} VkWriteDescriptorSet;
typedef struct VkPipelineShaderStageCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags, stage;
    VkShaderModule module;
    const char *pName;
    const void *pSpecializationInfo;
} VkPipelineShaderStageCreateInfo;
typedef struct VkComputePipelineCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    VkPipelineShaderStageCreateInfo stage;
    VkPipelineLayout layout;
    VkPipeline basePipelineHandle;
    int32_t basePipelineIndex;
} VkComputePipelineCreateInfo;
typedef struct VkBufferCopy {
    VkDeviceSize srcOffset, dstOffset, size;
} VkBufferCopy;
typedef struct VkMemoryBarrier {
    int32_t sType;
    const void *pNext;
    VkFlags srcAccessMask, dstAccessMask;
} VkMemoryBarrier;

/* The entry points, all through vkGetInstanceProcAddr; the first two are
 * global, the rest need the instance. */
typedef struct vk_fns {
    VkResult (*create_instance)(const VkInstanceCreateInfo *, const void *, VkInstance *);
    VkResult (*enumerate_instance_version)(uint32_t *);
    void (*destroy_instance)(VkInstance, const void *);
    VkResult (*enumerate_physical_devices)(VkInstance, uint32_t *, VkPhysicalDevice *);
    void (*get_properties)(VkPhysicalDevice, VkPhysicalDeviceProperties *);
    void (*get_features)(VkPhysicalDevice, VkPhysicalDeviceFeatures *);
    void (*get_queue_families)(VkPhysicalDevice, uint32_t *, VkQueueFamilyProperties *);
    void (*get_memory_properties)(VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *);
    VkResult (*create_device)(VkPhysicalDevice, const VkDeviceCreateInfo *, const void *,
                              VkDevice *);
    void (*destroy_device)(VkDevice, const void *);
    void (*get_device_queue)(VkDevice, uint32_t, uint32_t, VkQueue *);
    VkResult (*create_buffer)(VkDevice, const VkBufferCreateInfo *, const void *, VkBuffer *);
    void (*destroy_buffer)(VkDevice, VkBuffer, const void *);
    void (*get_buffer_requirements)(VkDevice, VkBuffer, VkMemoryRequirements *);
    VkResult (*allocate_memory)(VkDevice, const VkMemoryAllocateInfo *, const void *,
                                VkDeviceMemory *);
    void (*free_memory)(VkDevice, VkDeviceMemory, const void *);
    VkResult (*bind_buffer_memory)(VkDevice, VkBuffer, VkDeviceMemory, VkDeviceSize);
    VkResult (*map_memory)(VkDevice, VkDeviceMemory, VkDeviceSize, VkDeviceSize, VkFlags,
                           void **);
    void (*unmap_memory)(VkDevice, VkDeviceMemory);
    VkResult (*create_command_pool)(VkDevice, const VkCommandPoolCreateInfo *, const void *,
                                    VkCommandPool *);
    void (*destroy_command_pool)(VkDevice, VkCommandPool, const void *);
    VkResult (*allocate_command_buffers)(VkDevice, const VkCommandBufferAllocateInfo *,
                                         VkCommandBuffer *);
    VkResult (*reset_command_buffer)(VkCommandBuffer, VkFlags);
    VkResult (*begin_command_buffer)(VkCommandBuffer, const VkCommandBufferBeginInfo *);
    VkResult (*end_command_buffer)(VkCommandBuffer);
    void (*cmd_copy_buffer)(VkCommandBuffer, VkBuffer, VkBuffer, uint32_t, const VkBufferCopy *);
    void (*cmd_bind_pipeline)(VkCommandBuffer, int32_t, VkPipeline);
    void (*cmd_bind_descriptor_sets)(VkCommandBuffer, int32_t, VkPipelineLayout, uint32_t,
                                     uint32_t, const VkDescriptorSet *, uint32_t,
                                     const uint32_t *);
    void (*cmd_push_constants)(VkCommandBuffer, VkPipelineLayout, VkFlags, uint32_t, uint32_t,
                               const void *);
    void (*cmd_dispatch)(VkCommandBuffer, uint32_t, uint32_t, uint32_t);
    void (*cmd_write_timestamp)(VkCommandBuffer, VkFlags, VkQueryPool, uint32_t);
    void (*cmd_reset_query_pool)(VkCommandBuffer, VkQueryPool, uint32_t, uint32_t);
    void (*cmd_pipeline_barrier)(VkCommandBuffer, VkFlags, VkFlags, VkFlags, uint32_t,
                                 const VkMemoryBarrier *, uint32_t, const void *, uint32_t,
                                 const void *);
    VkResult (*queue_submit)(VkQueue, uint32_t, const VkSubmitInfo *, VkFence);
    VkResult (*create_fence)(VkDevice, const VkFenceCreateInfo *, const void *, VkFence *);
    void (*destroy_fence)(VkDevice, VkFence, const void *);
    VkResult (*wait_for_fences)(VkDevice, uint32_t, const VkFence *, VkBool32, uint64_t);
    VkResult (*reset_fences)(VkDevice, uint32_t, const VkFence *);
    VkResult (*create_query_pool)(VkDevice, const VkQueryPoolCreateInfo *, const void *,
                                  VkQueryPool *);
    void (*destroy_query_pool)(VkDevice, VkQueryPool, const void *);
    VkResult (*get_query_results)(VkDevice, VkQueryPool, uint32_t, uint32_t, size_t, void *,
                                  VkDeviceSize, VkFlags);
    VkResult (*create_shader_module)(VkDevice, const VkShaderModuleCreateInfo *, const void *,
                                     VkShaderModule *);
    void (*destroy_shader_module)(VkDevice, VkShaderModule, const void *);
    VkResult (*create_set_layout)(VkDevice, const VkDescriptorSetLayoutCreateInfo *,
                                  const void *, VkDescriptorSetLayout *);
    void (*destroy_set_layout)(VkDevice, VkDescriptorSetLayout, const void *);
    VkResult (*create_pipeline_layout)(VkDevice, const VkPipelineLayoutCreateInfo *,
                                       const void *, VkPipelineLayout *);
    void (*destroy_pipeline_layout)(VkDevice, VkPipelineLayout, const void *);
    VkResult (*create_descriptor_pool)(VkDevice, const VkDescriptorPoolCreateInfo *,
                                       const void *, VkDescriptorPool *);
    void (*destroy_descriptor_pool)(VkDevice, VkDescriptorPool, const void *);
    VkResult (*allocate_descriptor_sets)(VkDevice, const VkDescriptorSetAllocateInfo *,
                                         VkDescriptorSet *);
    void (*update_descriptor_sets)(VkDevice, uint32_t, const VkWriteDescriptorSet *, uint32_t,
                                   const void *);
    VkResult (*create_compute_pipelines)(VkDevice, uint64_t, uint32_t,
                                         const VkComputePipelineCreateInfo *, const void *,
                                         VkPipeline *);
    void (*destroy_pipeline)(VkDevice, VkPipeline, const void *);
    /* optional (Vulkan 1.1) */
    void (*get_features2)(VkPhysicalDevice, VkPhysicalDeviceFeatures2 *);
    void (*get_properties2)(VkPhysicalDevice, VkPhysicalDeviceProperties2 *);
} vk_fns;

static const char *const fn_names[] = {
    "vkCreateInstance", "vkEnumerateInstanceVersion", "vkDestroyInstance",
    "vkEnumeratePhysicalDevices", "vkGetPhysicalDeviceProperties",
    "vkGetPhysicalDeviceFeatures", "vkGetPhysicalDeviceQueueFamilyProperties",
    "vkGetPhysicalDeviceMemoryProperties", "vkCreateDevice", "vkDestroyDevice",
    "vkGetDeviceQueue", "vkCreateBuffer", "vkDestroyBuffer", "vkGetBufferMemoryRequirements",
    "vkAllocateMemory", "vkFreeMemory", "vkBindBufferMemory", "vkMapMemory", "vkUnmapMemory",
    "vkCreateCommandPool", "vkDestroyCommandPool", "vkAllocateCommandBuffers",
    "vkResetCommandBuffer", "vkBeginCommandBuffer", "vkEndCommandBuffer", "vkCmdCopyBuffer",
    "vkCmdBindPipeline", "vkCmdBindDescriptorSets", "vkCmdPushConstants", "vkCmdDispatch",
    "vkCmdWriteTimestamp", "vkCmdResetQueryPool", "vkCmdPipelineBarrier", "vkQueueSubmit",
    "vkCreateFence", "vkDestroyFence", "vkWaitForFences", "vkResetFences", "vkCreateQueryPool",
    "vkDestroyQueryPool", "vkGetQueryPoolResults", "vkCreateShaderModule",
    "vkDestroyShaderModule", "vkCreateDescriptorSetLayout", "vkDestroyDescriptorSetLayout",
    "vkCreatePipelineLayout", "vkDestroyPipelineLayout", "vkCreateDescriptorPool",
    "vkDestroyDescriptorPool", "vkAllocateDescriptorSets", "vkUpdateDescriptorSets",
    "vkCreateComputePipelines", "vkDestroyPipeline", "vkGetPhysicalDeviceFeatures2",
    "vkGetPhysicalDeviceProperties2"};
#define NREQUIRED (sizeof(fn_names) / sizeof(fn_names[0]) - 2)
_Static_assert(sizeof(vk_fns) == sizeof(fn_names) / sizeof(fn_names[0]) * sizeof(void *),
               "one name an entry point");

/* The push constants of device.comp. */
typedef struct vk_push {
    uint32_t n, reps, c;
    float s, d, e;
} vk_push;

typedef struct vk_state {
    void *lib;
    vk_fns f;
    VkInstance inst;
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue q;
    uint32_t family;
    uint64_t ts_mask;   /* the timestamps' valid bits; 0: host time instead */
    double ts_period;   /* nanoseconds a timestamp tick */
    VkPhysicalDeviceMemoryProperties mem;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    VkPipeline pipe[MD_NKERNELS];
} vk_state;

struct md_buf {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map; /* host-visible buffers: mapped */
};

struct md_host {
    md_buf b;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A memory type of `bits` with all of `want`, the first with `prefer` too. */
static int memory_type(const vk_state *s, uint32_t bits, VkFlags want, VkFlags prefer)
{
    int found = -1;
    for (uint32_t i = 0; i < s->mem.memoryTypeCount && i < 32; i++) {
        VkFlags f = s->mem.memoryTypes[i].propertyFlags;
        if (!(bits & (1u << i)) || (f & want) != want)
            continue;
        if ((f & prefer) == prefer)
            return (int)i;
        if (found < 0)
            found = (int)i;
    }
    return found;
}

/* A buffer in device-local memory, or in host-visible memory (`host`);
 * mapped when its memory is host-visible and coherent, as a UMA device's
 * (lavapipe's) device-local memory is.  0 or -1 with d->why. */
static int make_buffer(md_dev *d, size_t bytes, bool host, md_buf *b)
{
    vk_state *s = d->rt;
    memset(b, 0, sizeof(*b));
    VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, NULL, 0, bytes,
                             VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             0, 0, NULL};
    VkResult r = s->f.create_buffer(s->dev, &bi, NULL, &b->buf);
    if (r != VK_SUCCESS)
        return md_fail(d, "vkCreateBuffer(%zu bytes): %d", bytes, (int)r);
    VkMemoryRequirements req;
    s->f.get_buffer_requirements(s->dev, b->buf, &req);
    VkFlags want = host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                        : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    int type = memory_type(s, req.memoryTypeBits, want,
                           host ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0);
    if (type < 0)
        return md_fail(d, "no %s memory type for a buffer", host ? "host-visible" : "device-local");
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size,
                               (uint32_t)type};
    if ((r = s->f.allocate_memory(s->dev, &ai, NULL, &b->mem)) != VK_SUCCESS)
        return md_fail(d, "vkAllocateMemory(%zu bytes): %d", (size_t)req.size, (int)r);
    if ((r = s->f.bind_buffer_memory(s->dev, b->buf, b->mem, 0)) != VK_SUCCESS)
        return md_fail(d, "vkBindBufferMemory: %d", (int)r);
    VkFlags visible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if ((s->mem.memoryTypes[type].propertyFlags & visible) == visible &&
        (r = s->f.map_memory(s->dev, b->mem, 0, VK_WHOLE_SIZE, 0, &b->map)) != VK_SUCCESS)
        return md_fail(d, "vkMapMemory: %d", (int)r);
    return 0;
}

static void drop_buffer(vk_state *s, md_buf *b)
{
    if (b->map)
        s->f.unmap_memory(s->dev, b->mem);
    if (b->buf)
        s->f.destroy_buffer(s->dev, b->buf, NULL);
    if (b->mem)
        s->f.free_memory(s->dev, b->mem, NULL);
    memset(b, 0, sizeof(*b));
}

static int begin(md_dev *d)
{
    vk_state *s = d->rt;
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
                                   VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, NULL};
    VkResult r = s->f.reset_command_buffer(s->cmd, 0);
    if (r == VK_SUCCESS)
        r = s->f.begin_command_buffer(s->cmd, &bi);
    if (r != VK_SUCCESS)
        return md_fail(d, "vkBeginCommandBuffer: %d", (int)r);
    if (s->ts_mask)
        s->f.cmd_reset_query_pool(s->cmd, s->queries, 0, 2);
    return 0;
}

/* Ends the commands (their writes made visible to the host and to what
 * follows), submits them, waits; *seconds: between the two timestamps, or
 * the host's time around the submission. */
static int submit(md_dev *d, const char *what, double *seconds)
{
    vk_state *s = d->rt;
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL,
                          VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT |
                              VK_ACCESS_HOST_READ_BIT};
    s->f.cmd_pipeline_barrier(s->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                              VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                              &mb, 0, NULL, 0, NULL);
    VkResult r = s->f.end_command_buffer(s->cmd);
    if (r != VK_SUCCESS)
        return md_fail(d, "%s: vkEndCommandBuffer: %d", what, (int)r);
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO, NULL, 0, NULL, NULL, 1, &s->cmd, 0, NULL};
    double t0 = now_s();
    if ((r = s->f.queue_submit(s->q, 1, &si, s->fence)) != VK_SUCCESS)
        return md_fail(d, "%s: vkQueueSubmit: %d", what, (int)r);
    r = s->f.wait_for_fences(s->dev, 1, &s->fence, 1, UINT64_MAX);
    double t1 = now_s();
    s->f.reset_fences(s->dev, 1, &s->fence);
    if (r != VK_SUCCESS)
        return md_fail(d, "%s: vkWaitForFences: %d", what, (int)r);
    if (!seconds)
        return 0;
    *seconds = t1 - t0;
    if (s->ts_mask) {
        uint64_t ts[2];
        r = s->f.get_query_results(s->dev, s->queries, 0, 2, sizeof(ts), ts, 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (r != VK_SUCCESS)
            return md_fail(d, "%s: vkGetQueryPoolResults: %d", what, (int)r);
        *seconds = (double)((ts[1] - ts[0]) & s->ts_mask) * s->ts_period * 1e-9;
    }
    return 0;
}

static void stamp(vk_state *s, uint32_t i)
{
    if (s->ts_mask)
        s->f.cmd_write_timestamp(s->cmd,
                                 i ? VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT
                                   : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                 s->queries, i);
}

/* One copy between two buffers, timed. */
static int copy(md_dev *d, VkBuffer from, VkBuffer to, size_t bytes, const char *what,
                double *seconds)
{
    vk_state *s = d->rt;
    if (begin(d) != 0)
        return -1;
    VkBufferCopy region = {0, 0, bytes};
    stamp(s, 0);
    s->f.cmd_copy_buffer(s->cmd, from, to, 1, &region);
    stamp(s, 1);
    return submit(d, what, seconds);
}

/* The device's identity and what it can run. */
static int vk_pick(md_dev *d, vk_state *s, uint32_t version)
{
    const md_target *t = d->t;
    VkPhysicalDevice pds[64];
    uint32_t n = 64;
    VkResult r = s->f.enumerate_physical_devices(s->inst, &n, pds);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || t->ordinal < 0 || (uint32_t)t->ordinal >= n)
        return md_fail(d, "Vulkan device %d is gone (vkEnumeratePhysicalDevices: %d, %u devices)",
                       t->ordinal, (int)r, (unsigned)n);
    s->pd = pds[t->ordinal];
    VkPhysicalDeviceProperties2 p2;
    VkPhysicalDeviceDriverProperties drv;
    memset(&p2, 0, sizeof(p2));
    memset(&drv, 0, sizeof(drv));
    s->f.get_properties(s->pd, &p2.properties);
    const VkPhysicalDeviceProperties *p = &p2.properties;
    snprintf(d->name, sizeof(d->name), "%.*s", (int)sizeof(d->name) - 1, p->deviceName);
    if (strcmp(d->name, t->name) != 0)
        return md_fail(d, "Vulkan device %d is \"%s\", not \"%s\" as probed", t->ordinal, d->name,
                       t->name);
    bool v12 = version >= VK_API_VERSION_1_2 && p->apiVersion >= VK_API_VERSION_1_2;
    if (v12 && s->f.get_properties2) {
        p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        drv.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
        p2.pNext = &drv;
        s->f.get_properties2(s->pd, &p2);
    }
    if (drv.driverName[0])
        snprintf(d->driver, sizeof(d->driver), "%.60s, %.90s", drv.driverName,
                 drv.driverInfo[0] ? drv.driverInfo : "");
    else
        snprintf(d->driver, sizeof(d->driver), "Vulkan %u.%u, driver version %u",
                 VK_VERSION_MAJOR(p->apiVersion), VK_VERSION_MINOR(p->apiVersion),
                 (unsigned)p->driverVersion);
    d->max_buffer = p->limits.maxStorageBufferRange;
    /* A CPU driver (lavapipe) runs invocations in SIMD lanes and loads
     * storage buffers lane by lane: a contiguous share for each invocation
     * (device.cl, SPAN) reads faster there than its subgroup's lanes
     * interleaved (6 against 3 GB/s on this project's 2-core VM). */
    d->lanes = p->deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    s->ts_period = p->limits.timestampPeriod;

    VkPhysicalDeviceFeatures f;
    memset(&f, 0, sizeof(f));
    s->f.get_features(s->pd, &f);
    d->fp64 = f.f[FEATURE_SHADER_FLOAT64] != 0;
    snprintf(d->fp64_why, sizeof(d->fp64_why), "the device has no shaderFloat64");
    VkPhysicalDeviceFeatures2 f2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, NULL, {{0}}};
    VkPhysicalDeviceShaderFloat16Int8Features f16 = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, NULL, 0, 0};
    if (v12 && s->f.get_features2) {
        f2.pNext = &f16;
        s->f.get_features2(s->pd, &f2);
        d->fp16 = f16.shaderFloat16 != 0;
        snprintf(d->fp16_why, sizeof(d->fp16_why), "the device has no shaderFloat16");
    } else {
        snprintf(d->fp16_why, sizeof(d->fp16_why),
                 "the device or the loader is older than Vulkan 1.2 (shaderFloat16 not asked)");
    }

    VkQueueFamilyProperties fam[32];
    uint32_t nf = 32;
    s->f.get_queue_families(s->pd, &nf, fam);
    s->family = UINT32_MAX;
    for (uint32_t i = 0; i < nf && i < 32; i++)
        if (fam[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            s->family = i;
            break;
        }
    if (s->family == UINT32_MAX)
        return md_fail(d, "the Vulkan device has no compute queue");
    uint32_t bits = fam[s->family].timestampValidBits;
    s->ts_mask = bits == 0 || s->ts_period <= 0 ? 0 : bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
    s->f.get_memory_properties(s->pd, &s->mem);
    return 0;
}

static int vk_device(md_dev *d, vk_state *s)
{
    float priority = 1;
    VkDeviceQueueCreateInfo qi = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, NULL, 0, s->family,
                                  1, &priority};
    VkPhysicalDeviceFeatures want;
    memset(&want, 0, sizeof(want));
    want.f[FEATURE_SHADER_FLOAT64] = d->fp64;
    VkPhysicalDeviceShaderFloat16Int8Features f16 = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES, NULL, 1, 0};
    VkDeviceCreateInfo di = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, d->fp16 ? &f16 : NULL, 0, 1,
                             &qi, 0, NULL, 0, NULL, &want};
    VkResult r = s->f.create_device(s->pd, &di, NULL, &s->dev);
    if (r != VK_SUCCESS)
        return md_fail(d, "vkCreateDevice: %d", (int)r);
    s->f.get_device_queue(s->dev, s->family, 0, &s->q);
    VkCommandPoolCreateInfo pi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, NULL,
                                  VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, s->family};
    VkFenceCreateInfo fi = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, NULL, 0};
    if ((r = s->f.create_command_pool(s->dev, &pi, NULL, &s->pool)) != VK_SUCCESS ||
        (r = s->f.create_fence(s->dev, &fi, NULL, &s->fence)) != VK_SUCCESS)
        return md_fail(d, "vkCreateCommandPool or vkCreateFence: %d", (int)r);
    VkCommandBufferAllocateInfo ci = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, NULL,
                                      s->pool, 0, 1};
    if ((r = s->f.allocate_command_buffers(s->dev, &ci, &s->cmd)) != VK_SUCCESS)
        return md_fail(d, "vkAllocateCommandBuffers: %d", (int)r);
    if (s->ts_mask) {
        VkQueryPoolCreateInfo qp = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, NULL, 0,
                                    VK_QUERY_TYPE_TIMESTAMP, 2, 0};
        if ((r = s->f.create_query_pool(s->dev, &qp, NULL, &s->queries)) != VK_SUCCESS)
            return md_fail(d, "vkCreateQueryPool: %d", (int)r);
    }
    return 0;
}

/* The descriptor set of x, y, z and r, the pipeline layout and one compute
 * pipeline a kernel. */
static int vk_pipelines(md_dev *d, vk_state *s)
{
    VkDescriptorSetLayoutBinding b[4];
    for (uint32_t i = 0; i < 4; i++)
        b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                              VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo li = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          NULL, 0, 4, b};
    VkPushConstantRange pr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(vk_push)};
    VkResult r = s->f.create_set_layout(s->dev, &li, NULL, &s->set_layout);
    VkPipelineLayoutCreateInfo pl = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 1,
                                     &s->set_layout, 1, &pr};
    if (r == VK_SUCCESS)
        r = s->f.create_pipeline_layout(s->dev, &pl, NULL, &s->layout);
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4};
    VkDescriptorPoolCreateInfo dp = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, NULL, 0, 1, 1,
                                     &ps};
    if (r == VK_SUCCESS)
        r = s->f.create_descriptor_pool(s->dev, &dp, NULL, &s->dpool);
    VkDescriptorSetAllocateInfo da = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, NULL,
                                      s->dpool, 1, &s->set_layout};
    if (r == VK_SUCCESS)
        r = s->f.allocate_descriptor_sets(s->dev, &da, &s->set);
    if (r != VK_SUCCESS)
        return md_fail(d, "the descriptor set or pipeline layout: %d", (int)r);
    for (int k = 0; k < MD_NKERNELS; k++) {
        if ((k == MD_FMA64 && !d->fp64) || (k == MD_FMA16 && !d->fp16))
            continue;
        VkShaderModuleCreateInfo mi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, NULL, 0,
                                       md_spirv_modules[k].bytes, md_spirv_modules[k].words};
        VkShaderModule mod = 0;
        if ((r = s->f.create_shader_module(s->dev, &mi, NULL, &mod)) != VK_SUCCESS)
            return md_fail(d, "vkCreateShaderModule(%s): %d", md_kernel_names[k], (int)r);
        VkComputePipelineCreateInfo ci = {
            VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, NULL, 0,
            {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
             VK_SHADER_STAGE_COMPUTE_BIT, mod, "main", NULL},
            s->layout, 0, -1};
        r = s->f.create_compute_pipelines(s->dev, 0, 1, &ci, NULL, &s->pipe[k]);
        s->f.destroy_shader_module(s->dev, mod, NULL);
        if (r != VK_SUCCESS)
            return md_fail(d, "vkCreateComputePipelines(%s): %d", md_kernel_names[k], (int)r);
    }
    return 0;
}

static int vk_open(md_dev *d)
{
    vk_state *s = calloc(1, sizeof(*s));
    if (!s)
        return md_fail(d, "out of memory");
    d->rt = s;
    dlerror();
    if (!(s->lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL))) {
        const char *e = dlerror();
        return md_fail(d, "libvulkan.so.1 not loaded: %.200s", e ? e : "unknown");
    }
    PFN_vkVoidFunction (*gipa)(VkInstance, const char *);
    void *sym = dlsym(s->lib, "vkGetInstanceProcAddr");
    if (!sym)
        return md_fail(d, "libvulkan.so.1 lacks vkGetInstanceProcAddr");
    PB_VENDOR_FN(gipa, sym);
    PFN_vkVoidFunction fn = gipa(NULL, "vkCreateInstance");
    memcpy(&s->f.create_instance, &fn, sizeof(fn));
    fn = gipa(NULL, "vkEnumerateInstanceVersion");
    memcpy(&s->f.enumerate_instance_version, &fn, sizeof(fn));
    uint32_t version = VK_MAKE_API_VERSION(1, 0, 0);
    if (s->f.enumerate_instance_version &&
        s->f.enumerate_instance_version(&version) != VK_SUCCESS)
        version = VK_MAKE_API_VERSION(1, 0, 0);
    if (version > VK_API_VERSION_1_2)
        version = VK_API_VERSION_1_2; /* the structures declared here */
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "sysdesc measure", 1,
                             "sysdesc", 1, version};
    VkInstanceCreateInfo ii = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0, NULL, 0,
                               NULL};
    VkResult r = s->f.create_instance ? s->f.create_instance(&ii, NULL, &s->inst) : -1;
    if (r != VK_SUCCESS)
        return md_fail(d, "vkCreateInstance: %d", (int)r);
    for (size_t i = 2; i < sizeof(fn_names) / sizeof(fn_names[0]); i++) {
        fn = gipa(s->inst, fn_names[i]);
        if (!fn && i < NREQUIRED)
            return md_fail(d, "the Vulkan loader lacks %s", fn_names[i]);
        memcpy((char *)&s->f + i * sizeof(void *), &fn, sizeof(fn));
    }
    if (vk_pick(d, s, version) != 0 || vk_device(d, s) != 0 || vk_pipelines(d, s) != 0)
        return -1;
    return 0;
}

static md_buf *vk_alloc(md_dev *d, size_t bytes)
{
    md_buf *b = calloc(1, sizeof(*b));
    if (!b) {
        md_fail(d, "out of memory");
        return NULL;
    }
    if (make_buffer(d, bytes, false, b) != 0) {
        drop_buffer(d->rt, b);
        free(b);
        return NULL;
    }
    return b;
}

static void vk_free(md_dev *d, md_buf *b)
{
    if (b)
        drop_buffer(d->rt, b);
    free(b);
}

/* Directly where b is mapped, else through a host-visible staging buffer. */
static int vk_move(md_dev *d, md_buf *b, void *host, size_t bytes, bool to_device)
{
    if (b->map) {
        if (to_device)
            memcpy(b->map, host, bytes);
        else
            memcpy(host, b->map, bytes);
        return 0;
    }
    md_buf st;
    int rc = make_buffer(d, bytes, true, &st);
    if (rc == 0) {
        if (to_device)
            memcpy(st.map, host, bytes);
        rc = to_device ? copy(d, st.buf, b->buf, bytes, "a write", NULL)
                       : copy(d, b->buf, st.buf, bytes, "a read", NULL);
        if (rc == 0 && !to_device)
            memcpy(host, st.map, bytes);
    }
    drop_buffer(d->rt, &st);
    return rc;
}

static int vk_write(md_dev *d, md_buf *b, const void *src, size_t bytes)
{
    return vk_move(d, b, (void *)(uintptr_t)src, bytes, true);
}

static int vk_read(md_dev *d, md_buf *b, void *dst, size_t bytes)
{
    return vk_move(d, b, dst, bytes, false);
}

static int vk_launch(md_dev *d, md_kernel k, md_buf *const bufs[4], const md_args *a,
                     unsigned groups, double *seconds)
{
    vk_state *s = d->rt;
    VkDescriptorBufferInfo bi[4];
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < 4; i++) {
        bi[i] = (VkDescriptorBufferInfo){bufs[i]->buf, 0, VK_WHOLE_SIZE};
        w[i] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, s->set, i, 0, 1,
                                      VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &bi[i], NULL};
    }
    /* The set is not in use: every submission is waited for. */
    s->f.update_descriptor_sets(s->dev, 4, w, 0, NULL);
    if (begin(d) != 0)
        return -1;
    vk_push pc = {a->n, a->reps, a->c, a->s, a->d, a->e};
    s->f.cmd_bind_pipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipe[k]);
    s->f.cmd_bind_descriptor_sets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &s->set,
                                  0, NULL);
    s->f.cmd_push_constants(s->cmd, s->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
    stamp(s, 0);
    s->f.cmd_dispatch(s->cmd, groups, 1, 1);
    stamp(s, 1);
    return submit(d, md_kernel_names[k], seconds);
}

static void *vk_host_alloc(md_dev *d, size_t bytes, md_host **out)
{
    md_host *h = calloc(1, sizeof(*h));
    *out = h;
    if (!h) {
        md_fail(d, "out of memory");
        return NULL;
    }
    return make_buffer(d, bytes, true, &h->b) == 0 ? h->b.map : NULL;
}

static void vk_host_free(md_dev *d, md_host *h)
{
    if (h)
        drop_buffer(d->rt, &h->b);
    free(h);
}

static int vk_transfer(md_dev *d, md_buf *b, md_host *h, size_t bytes, bool to_device,
                       double *seconds)
{
    return to_device ? copy(d, h->b.buf, b->buf, bytes, "host to device", seconds)
                     : copy(d, b->buf, h->b.buf, bytes, "device to host", seconds);
}

static void vk_close(md_dev *d)
{
    vk_state *s = d->rt;
    if (!s)
        return;
    if (s->dev) {
        for (int k = 0; k < MD_NKERNELS; k++)
            if (s->pipe[k])
                s->f.destroy_pipeline(s->dev, s->pipe[k], NULL);
        if (s->dpool)
            s->f.destroy_descriptor_pool(s->dev, s->dpool, NULL);
        if (s->layout)
            s->f.destroy_pipeline_layout(s->dev, s->layout, NULL);
        if (s->set_layout)
            s->f.destroy_set_layout(s->dev, s->set_layout, NULL);
        if (s->queries)
            s->f.destroy_query_pool(s->dev, s->queries, NULL);
        if (s->fence)
            s->f.destroy_fence(s->dev, s->fence, NULL);
        if (s->pool)
            s->f.destroy_command_pool(s->dev, s->pool, NULL);
        s->f.destroy_device(s->dev, NULL);
    }
    if (s->inst && s->f.destroy_instance)
        s->f.destroy_instance(s->inst, NULL);
    free(s);
    d->rt = NULL;
}

const md_ops md_vulkan_ops = {
    .platform_key = NULL,
    .index_key = "device_index",
    .name_key = "device_name",
    .host_cpu = true,
    .open = vk_open,
    .alloc = vk_alloc,
    .free = vk_free,
    .write = vk_write,
    .read = vk_read,
    .launch = vk_launch,
    .host_alloc = vk_host_alloc,
    .host_free = vk_host_free,
    .transfer = vk_transfer,
    .close = vk_close,
};
