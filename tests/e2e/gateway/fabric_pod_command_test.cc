// `rdmagw fabric --pod` on `rdmagw-demo --kubernetes`: the real binaries,
// the demo's simulated kubelet and pod files, the gateway's gNMI server.
// With the NP of host01:mlx5_0 off, the pod holding that device is told
// its leaf port and what is wrong on the path; a pod on another rail with
// nothing on its path gets its path and no problem; a pod on a VF of the
// congested device is told its PF's cable and DCQCN chain.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "tests/support/test_support.h"

namespace {

using rdmagw::testing::TempDir;

std::string fabricPod(const std::string& pod, int gnmi_port, int* exit_code = nullptr) {
  const auto r = rdmagw::testing::runCommand(std::string(RDMAGW_BIN) + " fabric --pod " + pod +
                                             " --address 127.0.0.1:" + std::to_string(gnmi_port) + " --insecure");
  if (exit_code != nullptr) *exit_code = r.exit_code;
  return r.output;
}

TEST(FabricPodCommandTest, CongestedPodIsToldItsLeafPortAndVerdictsAndAHealthyOneNothing) {
  TempDir tmp("rdmagw-fabric-pod");
  const int port = rdmagw::testing::freeLoopbackPort();
  const int gnmi_port = rdmagw::testing::freeLoopbackPort();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string listen = "127.0.0.1:" + std::to_string(port);
    const std::string gnmi = "127.0.0.1:" + std::to_string(gnmi_port);
    const std::string dir = tmp.file("sim");
    execl(RDMAGW_DEMO_BIN, RDMAGW_DEMO_BIN, "--kubernetes", "--scenario", "np-off", "--hosts", "4", "--esxi", "0",
          "--interval", "1s", "--listen", listen.c_str(), "--gnmi-listen", gnmi.c_str(), "--snmp", "off", "--dir",
          dir.c_str(), "--log-level", "warn", static_cast<char*>(nullptr));
    _exit(127);
  }
  // The scenario's receiver is host01:mlx5_0, cabled to leaf01 Ethernet1/1;
  // its pod is training/host01-worker-0.
  std::string congested;
  const bool seen = rdmagw::testing::waitUntil(
      [&] {
        congested = fabricPod("training/host01-worker-0", gnmi_port);
        return congested.find("marks-no-cnp") != std::string::npos &&
               congested.find("leaf01 Ethernet1/1 prio 3") != std::string::npos;
      },
      rdmagw::testing::kEventWait, std::chrono::milliseconds(500));
  EXPECT_TRUE(seen) << congested;
  EXPECT_NE(congested.find("host01  mlx5_0  main       host-network  ens1f0np0  ens1f0np0  leaf01  Ethernet1/1"),
            std::string::npos)
      << congested;
  EXPECT_NE(congested.find("dcqcn-np-off"), std::string::npos) << congested;

  // A pod on a VF of that device: its cable is its PF's, and so is its
  // DCQCN chain (a VF's ECN marks and CNPs are counted on the PF).
  const std::string vf_pod = fabricPod("training/host01-vf-worker-0", gnmi_port);
  EXPECT_NE(vf_pod.find("host-network  ens1f0np0v0  ens1f0np0  leaf01  Ethernet1/1"), std::string::npos) << vf_pod;
  EXPECT_NE(vf_pod.find("host01 mlx5_0 port 1 (PF of mlx5_"), std::string::npos) << vf_pod;
  EXPECT_NE(vf_pod.find("marks-no-cnp"), std::string::npos) << vf_pod;

  // host04's second device is on the other rail: no sender, no pause tree.
  int rc = -1;
  const std::string healthy = fabricPod("training/host04-worker-1", gnmi_port, &rc);
  EXPECT_EQ(rc, 0) << healthy;
  EXPECT_NE(healthy.find("leaf01  Ethernet1/8"), std::string::npos) << healthy;
  EXPECT_NE(healthy.find("Problems on its path\n(none:"), std::string::npos) << healthy;

  const std::string missing = fabricPod("training/nobody", gnmi_port, &rc);
  EXPECT_EQ(rc, 1) << missing;
  EXPECT_NE(missing.find("no RDMA device of pod training/nobody among the 12 pod entries"), std::string::npos)
      << missing;

  const std::optional<int> stopped = rdmagw::testing::interruptChild(pid);
  ASSERT_TRUE(stopped) << "demo did not stop on SIGINT";
  EXPECT_TRUE(WIFEXITED(*stopped) && WEXITSTATUS(*stopped) == 0) << *stopped;
}

}  // namespace
