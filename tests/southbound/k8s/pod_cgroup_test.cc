// Pod UID, QoS class and container from /proc/<pid>/cgroup text, for every
// driver, QoS class and runtime the kubelet produces, and the text that is
// not a pod or not cgroup text at all.

#include "southbound/k8s/pod_cgroup.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace rdmagw::southbound::k8s {
namespace {

constexpr char kUid[] = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
constexpr char kCid[] = "3f1b9c2d7e4a5b6c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c";

struct PodCase {
  std::string what;
  std::string text;
  QosClass qos;
  ContainerRuntime runtime;
  std::string container_id;
};

TEST(PodCgroupTest, ReadsEveryDriverQosAndRuntime) {
  const std::string uid = kUid;
  const std::string uid_ = "0e1f2a3b_4c5d_4e6f_8a9b_0c1d2e3f4a5b";
  const std::string cid = kCid;
  const std::vector<PodCase> cases = {
      {"v1 cgroupfs burstable",
       "12:pids:/kubepods/burstable/pod" + uid + "/" + cid + "\n11:memory:/kubepods/burstable/pod" + uid + "/" + cid +
           "\n1:name=systemd:/kubepods/burstable/pod" + uid + "/" + cid + "\n0::/\n",
       QosClass::kBurstable, ContainerRuntime::kUnnamed, cid},
      {"v1 cgroupfs guaranteed", "4:cpu,cpuacct:/kubepods/pod" + uid + "/" + cid + "\n", QosClass::kGuaranteed,
       ContainerRuntime::kUnnamed, cid},
      {"v1 cgroupfs besteffort", "3:devices:/kubepods/besteffort/pod" + uid + "/" + cid + "\n", QosClass::kBestEffort,
       ContainerRuntime::kUnnamed, cid},
      {"v2 cgroupfs, CRI-O", "0::/kubepods/besteffort/pod" + uid + "/crio-" + cid + "\n", QosClass::kBestEffort,
       ContainerRuntime::kCrio, cid},
      {"v2 systemd burstable containerd",
       "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + uid_ + ".slice/cri-containerd-" + cid +
           ".scope\n",
       QosClass::kBurstable, ContainerRuntime::kContainerd, cid},
      {"v2 systemd guaranteed CRI-O",
       "0::/kubepods.slice/kubepods-pod" + uid_ + ".slice/crio-" + cid + ".scope\n", QosClass::kGuaranteed,
       ContainerRuntime::kCrio, cid},
      {"v2 systemd besteffort docker",
       "0::/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" + uid_ + ".slice/docker-" + cid +
           ".scope\n",
       QosClass::kBestEffort, ContainerRuntime::kDocker, cid},
      {"CRI-O's conmon is in the pod, not in a container",
       "0::/kubepods.slice/kubepods-pod" + uid_ + ".slice/crio-conmon-" + cid + ".scope\n", QosClass::kGuaranteed,
       ContainerRuntime::kCrioConmon, cid},
      {"v1 systemd, no container part (the pod's own cgroup)",
       "5:memory:/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + uid_ + ".slice\n",
       QosClass::kBurstable, ContainerRuntime::kNone, ""},
      {"a kubelet run under its own slice",
       "0::/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
       "kubelet-kubepods-besteffort-pod" + uid_ + ".slice/cri-containerd-" + cid + ".scope\n",
       QosClass::kBestEffort, ContainerRuntime::kContainerd, cid},
      {"seen from another cgroup namespace",
       "0::/../../kubepods-burstable-pod" + uid_ + ".slice/cri-containerd-" + cid + ".scope\n", QosClass::kBurstable,
       ContainerRuntime::kContainerd, cid},
      {"hybrid: v1 lines name the pod, the v2 line is the root",
       "8:pids:/kubepods/burstable/pod" + uid + "/" + cid + "\n0::/\n", QosClass::kBurstable,
       ContainerRuntime::kUnnamed, cid},
      {"a later controller names the container the first did not",
       "9:cpu:/kubepods/pod" + uid + "\n8:pids:/kubepods/pod" + uid + "/" + cid + "\n", QosClass::kGuaranteed,
       ContainerRuntime::kUnnamed, cid},
      {"no trailing newline", "0::/kubepods/pod" + uid + "/" + cid, QosClass::kGuaranteed,
       ContainerRuntime::kUnnamed, cid},
  };
  for (const PodCase& c : cases) {
    SCOPED_TRACE(c.what);
    Result<std::optional<PodCgroup>> pod = podFromCgroupText(c.text);
    ASSERT_TRUE(pod.isOk()) << pod.status().toString();
    ASSERT_TRUE(pod.value().has_value());
    EXPECT_EQ(pod.value()->pod_uid, uid);
    EXPECT_EQ(pod.value()->qos, c.qos);
    EXPECT_EQ(pod.value()->runtime, c.runtime);
    EXPECT_EQ(pod.value()->container_id, c.container_id);
  }
}

TEST(PodCgroupTest, StaticPodUidIsTheManifestHash) {
  Result<std::optional<PodCgroup>> pod =
      podFromCgroupText("0::/kubepods.slice/kubepods-burstable.slice/"
                        "kubepods-burstable-pod5d3c2f1e0a9b8c7d6e5f4a3b2c1d0e9f.slice\n");
  ASSERT_TRUE(pod.isOk()) << pod.status().toString();
  ASSERT_TRUE(pod.value().has_value());
  EXPECT_EQ(pod.value()->pod_uid, "5d3c2f1e0a9b8c7d6e5f4a3b2c1d0e9f");
}

TEST(PodCgroupTest, ProcessesOutsidePodsAreNotPods) {
  const std::vector<std::string> texts = {
      "0::/system.slice/containerd.service\n",
      "0::/user.slice/user-1000.slice/session-3.scope\n",
      "0::/\n",
      "12:pids:/\n1:name=systemd:/init.scope\n0::/\n",
      // "pod<uid>" not under kubepods is another program's directory name.
      std::string("0::/mything/pod") + kUid + "\n",
      // kubepods itself (the kubelet's own reserved cgroups) is no pod.
      "0::/kubepods.slice/kubepods-burstable.slice\n",
  };
  for (const std::string& text : texts) {
    Result<std::optional<PodCgroup>> pod = podFromCgroupText(text);
    ASSERT_TRUE(pod.isOk()) << text << ": " << pod.status().toString();
    EXPECT_FALSE(pod.value().has_value()) << text;
  }
}

TEST(PodCgroupTest, MalformedTextIsACorruptErrorSayingWhere) {
  struct BadCase {
    std::string text;
    std::string says;
  };
  const std::string uid = kUid;
  const std::vector<BadCase> cases = {
      {"", "no cgroup lines"},
      {"\n\n", "no cgroup lines"},
      {"garbage\n", "line 1: not \"hierarchy-ID:controllers:path\""},
      {"0::/\nonly:one\n", "line 2: not"},
      {"x:pids:/kubepods\n", "line 1: not"},
      {"0::relative/path\n", "does not start with '/'"},
      {"0::\n", "does not start with '/'"},
      {"0::/kubepods/burstable/podnot-a-uid/abc\n", "malformed pod UID \"not-a-uid\""},
      {"0::/kubepods.slice/kubepods-pod0e1f2a3b_4c5d.slice\n", "malformed pod UID"},
      {"0::/kubepods/pod" + uid + "/not-hex!\n", "unreadable container cgroup \"not-hex!\""},
      {"0::/kubepods.slice/kubepods-pod0e1f2a3b_4c5d_4e6f_8a9b_0c1d2e3f4a5b.slice/cri-containerd-.scope\n",
       "unreadable container cgroup"},
      {"1:pids:/kubepods/pod" + uid + "\n2:cpu:/kubepods/pod11111111-2222-3333-4444-555555555555\n",
       "line 2: pod 11111111-2222-3333-4444-555555555555 but an earlier line names " + uid},
      {std::string("0::/kubepods/pod\0\n", 17), "malformed pod UID"},
  };
  for (const BadCase& c : cases) {
    Result<std::optional<PodCgroup>> pod = podFromCgroupText(c.text);
    ASSERT_FALSE(pod.isOk()) << c.text;
    EXPECT_EQ(pod.status().code(), Status::Code::kCorrupt) << c.text;
    EXPECT_NE(pod.status().message().find(c.says), std::string::npos) << pod.status().message();
  }
}

TEST(PodCgroupTest, PodUidShapes) {
  EXPECT_TRUE(isPodUid(kUid));
  EXPECT_TRUE(isPodUid("5d3c2f1e0a9b8c7d6e5f4a3b2c1d0e9f"));
  EXPECT_FALSE(isPodUid("0e1f2a3b_4c5d_4e6f_8a9b_0c1d2e3f4a5b"));
  EXPECT_FALSE(isPodUid("0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5"));
  EXPECT_FALSE(isPodUid("0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5g"));
  EXPECT_FALSE(isPodUid(""));
  EXPECT_EQ(qosClassName(QosClass::kBestEffort), "BestEffort");
}

}  // namespace
}  // namespace rdmagw::southbound::k8s
