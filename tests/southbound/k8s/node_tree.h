#pragma once
// A Kubernetes node's files as the attribution reads them, built in a temp
// directory: a sysfs-shaped PCI tree with SR-IOV links (as the kernel's
// drivers/pci/iov.c makes them; no recorded SR-IOV tree exists in the
// fixtures, the shape follows the sysfs-bus-pci ABI document) and a
// /proc-shaped tree whose namespaces are hard links to one file each (as
// /proc's ns/net and a pinned netns are one nsfs inode).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "southbound/k8s/pod_netns.h"
#include "tests/support/test_support.h"

namespace rdmagw::testing {

namespace fs = std::filesystem;

class SysfsTree {
 public:
  SysfsTree() : root_("k8s-sriov-sysfs") { fs::create_directories(busDir()); }
  std::string sysRoot() const { return root_.path(); }

  // /sys/devices/pci0000:3a/<addr>, linked from /sys/bus/pci/devices/<addr>.
  void device(const std::string& addr) {
    fs::create_directories(deviceDir(addr));
    fs::create_directory_symlink("../../../devices/pci0000:3a/" + addr, busDir() / addr);
  }
  void vf(const std::string& pf, uint32_t n, const std::string& vf_addr) {
    device(vf_addr);
    fs::create_directory_symlink("../" + vf_addr, deviceDir(pf) / ("virtfn" + std::to_string(n)));
    fs::create_directory_symlink("../" + pf, deviceDir(vf_addr) / "physfn");
  }
  void entry(const std::string& addr, const std::string& subdir, const std::string& name) {
    fs::create_directories(deviceDir(addr) / subdir / name);
  }
  fs::path deviceDir(const std::string& addr) const { return fs::path(root_.path()) / "devices/pci0000:3a" / addr; }

 private:
  fs::path busDir() const { return fs::path(root_.path()) / "bus/pci/devices"; }
  TempDir root_;
};

// A cgroup v2 systemd-driver line naming the pod, as the kubelet makes it.
inline std::string podCgroup(const std::string& uid) {
  std::string underscored = uid;
  for (char& c : underscored) c = c == '-' ? '_' : c;
  return "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + underscored +
         ".slice/cri-containerd-3f1b9c2d7e4a5b6c.scope\n";
}

// A /proc-shaped tree, with netns files pinned under run/netns and
// run/docker/netns.
class ProcTree {
 public:
  ProcTree() : root_("k8s-pod-netns") {
    for (const char* dir : {"/proc", "/ns", "/run", "/run/netns", "/run/docker", "/run/docker/netns"}) {
      ::mkdir((root_.path() + dir).c_str(), 0755);
    }
    namespaceFile("host");
  }
  // A namespace: one inode, to be pinned and entered by hard links.
  void namespaceFile(const std::string& name) { ASSERT_TRUE(writeFile(root_.file("ns/" + name), "")); }
  void pin(const std::string& ns, const std::string& pinned_path) {
    ASSERT_EQ(::link(root_.file("ns/" + ns).c_str(), root_.file(pinned_path).c_str()), 0) << pinned_path;
  }
  void process(int pid, const std::string& ns, const std::string& cgroup_text) {
    const std::string dir = root_.file("proc/" + std::to_string(pid));
    ::mkdir(dir.c_str(), 0755);
    ::mkdir((dir + "/ns").c_str(), 0755);
    ASSERT_EQ(::link(root_.file("ns/" + ns).c_str(), (dir + "/ns/net").c_str()), 0) << pid;
    ASSERT_TRUE(writeFile(dir + "/cgroup", cgroup_text));
  }
  southbound::k8s::PodNetnsOptions options() const {
    return southbound::k8s::PodNetnsOptions{
        root_.file("proc"), {root_.file("run/netns"), root_.file("run/docker/netns")}, ""};
  }
  std::string file(const std::string& rel) const { return root_.file(rel); }

 private:
  TempDir root_;
};

}  // namespace rdmagw::testing
