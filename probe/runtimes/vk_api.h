/* vk_api.h - the Vulkan declarations the probe (vulkan.c) and the
 * device measurement (measure_dev_vulkan.c) share, written from the Vulkan
 * specification (1.3): the loader is opened with dlopen and no Vulkan
 * header is needed to build.  Not installed. */
#ifndef SYSDESC_VK_API_H
#define SYSDESC_VK_API_H

#include <stddef.h>
#include <stdint.h>

typedef uint32_t VkBool32;
typedef uint32_t VkFlags;
typedef uint64_t VkDeviceSize;
typedef int32_t VkResult;
typedef struct VkInstance_T *VkInstance;
typedef struct VkPhysicalDevice_T *VkPhysicalDevice;
typedef void (*PFN_vkVoidFunction)(void);

#define VK_MAKE_API_VERSION(major, minor, patch)                                               \
    (((uint32_t)(major) << 22) | ((uint32_t)(minor) << 12) | (uint32_t)(patch))
#define VK_API_VERSION_1_1 VK_MAKE_API_VERSION(1, 1, 0)
#define VK_API_VERSION_1_2 VK_MAKE_API_VERSION(1, 2, 0)
#define VK_API_VERSION_1_3 VK_MAKE_API_VERSION(1, 3, 0)
#define VK_VERSION_MAJOR(v) ((uint32_t)(v) >> 22 & 0x7fu)
#define VK_VERSION_MINOR(v) ((uint32_t)(v) >> 12 & 0x3ffu)
#define VK_VERSION_PATCH(v) ((uint32_t)(v) & 0xfffu)

enum {
    VK_SUCCESS = 0,
    VK_INCOMPLETE = 5,
    VK_STRUCTURE_TYPE_APPLICATION_INFO = 0,
    VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO = 1,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES = 1000071004,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES = 1000094000,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES = 1000196000,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT = 1000212000,
    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES = 1000225000,
    VK_PHYSICAL_DEVICE_TYPE_OTHER = 0,
    VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU = 1,
    VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU = 2,
    VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU = 3,
    VK_PHYSICAL_DEVICE_TYPE_CPU = 4,
    VK_MEMORY_HEAP_DEVICE_LOCAL_BIT = 1,
};

typedef struct VkApplicationInfo {
    int32_t sType;
    const void *pNext;
    const char *pApplicationName;
    uint32_t applicationVersion;
    const char *pEngineName;
    uint32_t engineVersion;
    uint32_t apiVersion;
} VkApplicationInfo;

typedef struct VkInstanceCreateInfo {
    int32_t sType;
    const void *pNext;
    VkFlags flags;
    const VkApplicationInfo *pApplicationInfo;
    uint32_t enabledLayerCount;
    const char *const *ppEnabledLayerNames;
    uint32_t enabledExtensionCount;
    const char *const *ppEnabledExtensionNames;
} VkInstanceCreateInfo;

typedef struct VkPhysicalDeviceLimits {
    uint32_t maxImageDimension1D, maxImageDimension2D, maxImageDimension3D,
        maxImageDimensionCube, maxImageArrayLayers, maxTexelBufferElements,
        maxUniformBufferRange, maxStorageBufferRange, maxPushConstantsSize,
        maxMemoryAllocationCount, maxSamplerAllocationCount;
    VkDeviceSize bufferImageGranularity, sparseAddressSpaceSize;
    uint32_t maxBoundDescriptorSets, maxPerStageDescriptorSamplers,
        maxPerStageDescriptorUniformBuffers, maxPerStageDescriptorStorageBuffers,
        maxPerStageDescriptorSampledImages, maxPerStageDescriptorStorageImages,
        maxPerStageDescriptorInputAttachments, maxPerStageResources, maxDescriptorSetSamplers,
        maxDescriptorSetUniformBuffers, maxDescriptorSetUniformBuffersDynamic,
        maxDescriptorSetStorageBuffers, maxDescriptorSetStorageBuffersDynamic,
        maxDescriptorSetSampledImages, maxDescriptorSetStorageImages,
        maxDescriptorSetInputAttachments, maxVertexInputAttributes, maxVertexInputBindings,
        maxVertexInputAttributeOffset, maxVertexInputBindingStride, maxVertexOutputComponents,
        maxTessellationGenerationLevel, maxTessellationPatchSize,
        maxTessellationControlPerVertexInputComponents,
        maxTessellationControlPerVertexOutputComponents,
        maxTessellationControlPerPatchOutputComponents,
        maxTessellationControlTotalOutputComponents, maxTessellationEvaluationInputComponents,
        maxTessellationEvaluationOutputComponents, maxGeometryShaderInvocations,
        maxGeometryInputComponents, maxGeometryOutputComponents, maxGeometryOutputVertices,
        maxGeometryTotalOutputComponents, maxFragmentInputComponents,
        maxFragmentOutputAttachments, maxFragmentDualSrcAttachments,
        maxFragmentCombinedOutputResources, maxComputeSharedMemorySize,
        maxComputeWorkGroupCount[3], maxComputeWorkGroupInvocations, maxComputeWorkGroupSize[3],
        subPixelPrecisionBits, subTexelPrecisionBits, mipmapPrecisionBits,
        maxDrawIndexedIndexValue, maxDrawIndirectCount;
    float maxSamplerLodBias, maxSamplerAnisotropy;
    uint32_t maxViewports, maxViewportDimensions[2];
    float viewportBoundsRange[2];
    uint32_t viewportSubPixelBits;
    size_t minMemoryMapAlignment;
    VkDeviceSize minTexelBufferOffsetAlignment, minUniformBufferOffsetAlignment,
        minStorageBufferOffsetAlignment;
    int32_t minTexelOffset;
    uint32_t maxTexelOffset;
    int32_t minTexelGatherOffset;
    uint32_t maxTexelGatherOffset;
    float minInterpolationOffset, maxInterpolationOffset;
    uint32_t subPixelInterpolationOffsetBits, maxFramebufferWidth, maxFramebufferHeight,
        maxFramebufferLayers;
    VkFlags framebufferColorSampleCounts, framebufferDepthSampleCounts,
        framebufferStencilSampleCounts, framebufferNoAttachmentsSampleCounts;
    uint32_t maxColorAttachments;
    VkFlags sampledImageColorSampleCounts, sampledImageIntegerSampleCounts,
        sampledImageDepthSampleCounts, sampledImageStencilSampleCounts, storageImageSampleCounts;
    uint32_t maxSampleMaskWords;
    VkBool32 timestampComputeAndGraphics;
    float timestampPeriod;
    uint32_t maxClipDistances, maxCullDistances, maxCombinedClipAndCullDistances,
        discreteQueuePriorities;
    float pointSizeRange[2], lineWidthRange[2], pointSizeGranularity, lineWidthGranularity;
    VkBool32 strictLines, standardSampleLocations;
    VkDeviceSize optimalBufferCopyOffsetAlignment, optimalBufferCopyRowPitchAlignment,
        nonCoherentAtomSize;
} VkPhysicalDeviceLimits;

typedef struct VkPhysicalDeviceProperties {
    uint32_t apiVersion, driverVersion, vendorID, deviceID;
    int32_t deviceType;
    char deviceName[256];
    uint8_t pipelineCacheUUID[16];
    VkPhysicalDeviceLimits limits;
    VkBool32 sparseProperties[5];
} VkPhysicalDeviceProperties;

typedef struct VkPhysicalDeviceProperties2 {
    int32_t sType;
    void *pNext;
    VkPhysicalDeviceProperties properties;
} VkPhysicalDeviceProperties2;

typedef struct VkPhysicalDeviceDriverProperties {
    int32_t sType;
    void *pNext;
    int32_t driverID;
    char driverName[256], driverInfo[256];
    uint8_t conformanceVersion[4];
} VkPhysicalDeviceDriverProperties;

typedef struct VkMemoryHeap {
    VkDeviceSize size;
    VkFlags flags;
} VkMemoryHeap;

typedef struct VkPhysicalDeviceMemoryProperties {
    uint32_t memoryTypeCount;
    struct {
        VkFlags propertyFlags;
        uint32_t heapIndex;
    } memoryTypes[32];
    uint32_t memoryHeapCount;
    VkMemoryHeap memoryHeaps[16];
} VkPhysicalDeviceMemoryProperties;

typedef struct VkExtensionProperties {
    char extensionName[256];
    uint32_t specVersion;
} VkExtensionProperties;

#endif
