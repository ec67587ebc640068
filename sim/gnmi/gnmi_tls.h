#pragma once
// Test PKI for the simulated gNMI target, made with the `openssl` CLI: a
// self-signed CA (or one given), a server cert (SAN IP:127.0.0.1,
// DNS:localhost) and a client cert signed by it, and an untrusted
// self-signed client cert.

#include <string>

#include "models/status.h"
#include "sim/gnmi/gnmi_target.h"

namespace rdmagw::sim {

// Creates a fresh temp dir and writes a self-signed CA into it
// (ca->dir, ca->cert, ca->key). The caller removes the dir.
Status generateGnmiCa(GnmiCa* ca);

// Creates a fresh temp dir and writes every file of GnmiTlsFiles into it.
// With `ca` (its cert and key set), the certificates are signed by it and
// files->ca_cert/ca_key name its files, which stay where they are; without,
// the dir gets a CA of its own.
Status generateGnmiTlsFiles(GnmiTlsFiles* files, const GnmiCa* ca = nullptr);

// Reads a whole file ("" when unreadable).
std::string readTextFile(const std::string& path);

}  // namespace rdmagw::sim
