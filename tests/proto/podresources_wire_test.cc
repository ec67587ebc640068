// Keeps proto/podresources.proto true to the kubelet's PodResources v1 API:
// messages built with the generated code are serialized and compared with
// bytes encoded here by hand from the upstream field numbers and types
// (k8s.io/kubelet/pkg/apis/podresources/v1/api.proto), so a wrong number or
// type changes the bytes and fails. Every field is given a value of its own,
// so two swapped numbers fail too.

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "podresources.pb.h"

namespace rdmagw::testing {

// The protobuf wire format, written out by hand: a tag is
// (field number << 3) | wire type; 0 = varint, 2 = length-delimited.
std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

std::string varintField(int number, uint64_t v) { return varint(uint64_t(number) << 3 | 0) + varint(v); }

std::string bytesField(int number, const std::string& payload) {
  return varint(uint64_t(number) << 3 | 2) + varint(payload.size()) + payload;
}

// A proto3 repeated scalar is packed: one length-delimited run of varints.
std::string packedField(int number, std::initializer_list<uint64_t> values) {
  std::string run;
  for (uint64_t v : values) run += varint(v);
  return bytesField(number, run);
}

}  // namespace rdmagw::testing

namespace {

using rdmagw::testing::bytesField;
using rdmagw::testing::packedField;
using rdmagw::testing::varintField;

// TopologyInfo{nodes: [NUMANode{ID: id}]}: TopologyInfo.nodes = 1, NUMANode.ID = 1.
std::string topologyBytes(uint64_t id) { return bytesField(1, varintField(1, id)); }

void fillTopology(v1::TopologyInfo* topology, int64_t id) { topology->add_nodes()->set_id(id); }

// ContainerDevices: resource_name = 1, device_ids = 2 (repeated string), topology = 3.
std::string devicesBytes() {
  return bytesField(1, "rdma/hca_shared_devices_a") + bytesField(2, "0000:3b:02.1") + bytesField(2, "7") +
         bytesField(3, topologyBytes(1));
}

void fillDevices(v1::ContainerDevices* devices) {
  devices->set_resource_name("rdma/hca_shared_devices_a");
  devices->add_device_ids("0000:3b:02.1");
  devices->add_device_ids("7");
  fillTopology(devices->mutable_topology(), 1);
}

// ContainerMemory: memory_type = 1, size = 2 (uint64), topology = 3.
std::string memoryBytes() {
  return bytesField(1, "hugepages-1Gi") + varintField(2, 1073741824) + bytesField(3, topologyBytes(3));
}

void fillMemory(v1::ContainerMemory* memory) {
  memory->set_memory_type("hugepages-1Gi");
  memory->set_size(1073741824);
  fillTopology(memory->mutable_topology(), 3);
}

// DynamicResource: claim_name = 2, claim_namespace = 3, claim_resources = 4;
// ClaimResource: cdi_devices = 1, driver_name = 2, pool_name = 3, device_name = 4;
// CDIDevice: name = 1.
std::string dynamicBytes() {
  const std::string claim = bytesField(1, bytesField(1, "nvidia.com/gpu=gpu0")) + bytesField(2, "gpu.nvidia.com") +
                            bytesField(3, "node-a") + bytesField(4, "gpu-0");
  return bytesField(2, "claim-a") + bytesField(3, "team-a") + bytesField(4, claim);
}

void fillDynamic(v1::DynamicResource* dynamic) {
  dynamic->set_claim_name("claim-a");
  dynamic->set_claim_namespace("team-a");
  v1::ClaimResource* claim = dynamic->add_claim_resources();
  claim->add_cdi_devices()->set_name("nvidia.com/gpu=gpu0");
  claim->set_driver_name("gpu.nvidia.com");
  claim->set_pool_name("node-a");
  claim->set_device_name("gpu-0");
}

// PodResources: name = 1, namespace = 2, containers = 3; ContainerResources:
// name = 1, devices = 2, cpu_ids = 3 (packed int64), memory = 4,
// dynamic_resources = 5.
std::string podBytes() {
  const std::string container = bytesField(1, "trainer") + bytesField(2, devicesBytes()) + packedField(3, {4, 5}) +
                                bytesField(4, memoryBytes()) + bytesField(5, dynamicBytes());
  return bytesField(1, "job-0") + bytesField(2, "ml") + bytesField(3, container);
}

void fillPod(v1::PodResources* pod) {
  pod->set_name("job-0");
  pod->set_namespace_("ml");
  v1::ContainerResources* container = pod->add_containers();
  container->set_name("trainer");
  fillDevices(container->add_devices());
  container->add_cpu_ids(4);
  container->add_cpu_ids(5);
  fillMemory(container->add_memory());
  fillDynamic(container->add_dynamic_resources());
}

TEST(PodResourcesWire, ListResponseMatchesHandEncodedBytes) {
  v1::ListPodResourcesResponse response;
  fillPod(response.add_pod_resources());
  // ListPodResourcesResponse.pod_resources = 1.
  EXPECT_EQ(response.SerializeAsString(), bytesField(1, podBytes()));
}

TEST(PodResourcesWire, AllocatableResponseMatchesHandEncodedBytes) {
  v1::AllocatableResourcesResponse response;
  fillDevices(response.add_devices());
  response.add_cpu_ids(0);
  response.add_cpu_ids(127);
  fillMemory(response.add_memory());
  // devices = 1, cpu_ids = 2 (packed int64), memory = 3.
  EXPECT_EQ(response.SerializeAsString(),
            bytesField(1, devicesBytes()) + packedField(2, {0, 127}) + bytesField(3, memoryBytes()));
}

TEST(PodResourcesWire, GetRequestAndResponseMatchHandEncodedBytes) {
  v1::GetPodResourcesRequest request;
  request.set_pod_name("job-0");
  request.set_pod_namespace("ml");
  // pod_name = 1, pod_namespace = 2.
  EXPECT_EQ(request.SerializeAsString(), bytesField(1, "job-0") + bytesField(2, "ml"));

  v1::GetPodResourcesResponse response;
  fillPod(response.mutable_pod_resources());
  // pod_resources = 1.
  EXPECT_EQ(response.SerializeAsString(), bytesField(1, podBytes()));
}

TEST(PodResourcesWire, HandEncodedBytesParseIntoTheRightFields) {
  v1::PodResources pod;
  ASSERT_TRUE(pod.ParseFromString(podBytes()));
  EXPECT_TRUE(pod.GetReflection()->GetUnknownFields(pod).empty());
  EXPECT_EQ(pod.namespace_(), "ml");
  ASSERT_EQ(pod.containers_size(), 1);
  const v1::ContainerResources& container = pod.containers(0);
  ASSERT_EQ(container.devices_size(), 1);
  EXPECT_EQ(container.devices(0).device_ids(1), "7");
  EXPECT_EQ(container.devices(0).topology().nodes(0).id(), 1);
  EXPECT_EQ(container.memory(0).size(), 1073741824u);
  EXPECT_EQ(container.dynamic_resources(0).claim_resources(0).pool_name(), "node-a");
}

// A negative NUMA ID (never sent, but int64 on the wire) is a ten-byte
// varint: the field is int64, not sint64 or int32.
TEST(PodResourcesWire, NumaIdIsInt64) {
  v1::NUMANode node;
  node.set_id(-1);
  EXPECT_EQ(node.SerializeAsString(), varintField(1, ~uint64_t{0}));
}

// The full method names gRPC puts on the wire: /v1.PodResourcesLister/<rpc>.
TEST(PodResourcesWire, ServiceAndMethodNames) {
  const auto* service = v1::ListPodResourcesRequest::descriptor()->file()->FindServiceByName("PodResourcesLister");
  ASSERT_NE(service, nullptr);
  EXPECT_EQ(service->full_name(), "v1.PodResourcesLister");
  ASSERT_EQ(service->method_count(), 3);
  EXPECT_EQ(service->FindMethodByName("List")->input_type()->full_name(), "v1.ListPodResourcesRequest");
  EXPECT_EQ(service->FindMethodByName("GetAllocatableResources")->output_type()->full_name(),
            "v1.AllocatableResourcesResponse");
  EXPECT_EQ(service->FindMethodByName("Get")->input_type()->full_name(), "v1.GetPodResourcesRequest");
  EXPECT_TRUE(v1::DynamicResource::descriptor()->IsReservedNumber(1));
}

}  // namespace
