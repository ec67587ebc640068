#pragma once
// Test PKI for the simulated gNMI target, made with the `openssl` CLI: a
// self-signed CA, a server cert (SAN IP:127.0.0.1, DNS:localhost), a client
// cert signed by the CA, and an untrusted self-signed client cert.

#include <string>

#include "models/status.h"
#include "sim/gnmi/gnmi_target.h"

namespace rdmagw::sim {

// Creates a fresh temp dir and writes every file of GnmiTlsFiles into it.
Status generateGnmiTlsFiles(GnmiTlsFiles* files);

// Reads a whole file ("" when unreadable).
std::string readTextFile(const std::string& path);

}  // namespace rdmagw::sim
