#include "southbound/ingest_gate.h"

#include <algorithm>
#include <semaphore>
#include <thread>

namespace rdmagw::southbound {
namespace {

std::counting_semaphore<>& gate() {
  static std::counting_semaphore<> g(static_cast<std::ptrdiff_t>(IngestGate::places()));
  return g;
}

}  // namespace

size_t IngestGate::places() {
  static const size_t n = std::max<size_t>(2, std::thread::hardware_concurrency());
  return n;
}

IngestGate::Pass::Pass() { gate().acquire(); }
IngestGate::Pass::~Pass() { gate().release(); }

}  // namespace rdmagw::southbound
