// The SNMP northbound's OID and index handling (northbound/snmp/):
//   mode 0  dotted OID text (parseOid, the form of the MIB catalog and
//           configuration): what it accepts prints back the same
//           (oidToString) and parses to the same arcs;
//   mode 1  a table built from fuzzed rows (string and number index parts,
//           appendStringIndex as the snapshot builder encodes a key) and
//           cells, then looked up and walked with fuzzed request OIDs the
//           way GET and GETNEXT do (getExact, getNext): a walk only moves
//           forward, stays in the table, ends, and every object it returns
//           is found again by an exact GET with the same value;
//   mode 2  the ifIndex state file (IfIndexRegistry::load): bad lines are
//           reported, and indexes stay in range, stable and distinct per
//           context.

#include <fuzzer/FuzzedDataProvider.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "northbound/snmp/if_index_registry.h"
#include "northbound/snmp/mib_catalog.h"
#include "northbound/snmp/mib_snapshot.h"
#include "northbound/snmp/oid.h"

using namespace rdmagw::northbound::snmp;

namespace {

void oidText(FuzzedDataProvider& in) {
  const std::string text = in.ConsumeRemainingBytesAsString();
  rdmagw::Result<Oid> oid = parseOid(text);
  if (!oid.isOk()) {
    if (oid.status().message().empty()) __builtin_trap();
    return;
  }
  const std::string printed = oidToString(*oid);
  rdmagw::Result<Oid> again = parseOid(printed);
  if (!again.isOk() || *again != *oid || !oidHasPrefix(*oid, *again)) __builtin_trap();
}

bool sameCell(const CellView& a, const CellView& b) {
  return a.type == b.type && a.number == b.number && a.text == b.text;
}

void tableWalk(FuzzedDataProvider& in) {
  const std::span<const TableDef> tables = MibCatalog::instance().tables();
  const TableDef& def = tables[in.ConsumeIntegralInRange<size_t>(0, tables.size() - 1)];
  TableDataBuilder builder;
  const size_t rows = in.ConsumeIntegralInRange<size_t>(0, 24);
  for (size_t r = 0; r < rows; ++r) {
    Oid index;
    for (IndexPart part : def.index) {
      if (part == IndexPart::kString) {
        appendStringIndex(&index, in.ConsumeRandomLengthString(24));
      } else {
        index.push_back(in.ConsumeIntegral<uint32_t>());
      }
    }
    const size_t cells = in.ConsumeIntegralInRange<size_t>(1, 4);
    for (size_t c = 0; c < cells; ++c) {
      const uint32_t column = in.ConsumeIntegralInRange<uint32_t>(1, 12);
      const auto type = SnmpType(in.ConsumeIntegralInRange<int>(1, int(SnmpType::kCounter64)));
      if (type == SnmpType::kOctetString) {
        builder.addText(index, column, in.ConsumeRandomLengthString(32));
      } else {
        builder.addNumber(index, column, type, in.ConsumeIntegral<uint64_t>());
      }
    }
  }
  const TableData data = builder.finish();
  (void)data.heapBytes();

  // Requests as a manager sends them: anything under (or around) the table.
  std::vector<Oid> requests = {def.table, def.entry, {}};
  while (in.remaining_bytes() > 0 && requests.size() < 16) {
    Oid o = in.ConsumeBool() ? def.entry : Oid{};
    const size_t arcs = in.ConsumeIntegralInRange<size_t>(0, 12);
    for (size_t i = 0; i < arcs; ++i) o.push_back(in.ConsumeIntegral<uint32_t>());
    requests.push_back(std::move(o));
  }
  for (const Oid& request : requests) {
    (void)getExact(def, data, request);
    Found found;
    if (getNext(def, data, request, in.ConsumeBool(), &found)) {
      if (!oidHasPrefix(found.oid, def.entry)) __builtin_trap();
    }
  }

  // A full walk from the table's OID.
  Oid at = def.table;
  size_t steps = 0;
  Found found;
  while (getNext(def, data, at, false, &found)) {
    if (!(at < found.oid) || !oidHasPrefix(found.oid, def.entry)) __builtin_trap();
    std::optional<CellView> exact = getExact(def, data, found.oid);
    if (!exact || !sameCell(*exact, found.cell)) __builtin_trap();
    if (++steps > data.cellCount()) __builtin_trap();
    at = found.oid;
  }
  if (steps != data.cellCount()) __builtin_trap();  // every present cell, once
}

void ifIndexState(FuzzedDataProvider& in) {
  static const std::string path = "/tmp/rdmagw-fuzz-ifindex-" + std::to_string(getpid());
  const std::string names = in.ConsumeRandomLengthString(256);
  const std::string file = in.ConsumeRemainingBytesAsString();
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(file.data(), 1, file.size(), f);
    std::fclose(f);
  }
  IfIndexRegistry registry(path);
  (void)registry.load();
  // Names new and old, in two contexts: one number per name, never shared.
  std::map<std::pair<std::string, std::string>, uint32_t> seen;
  std::map<std::string, std::set<uint32_t>> used;
  size_t start = 0;
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i <= names.size(); ++i) {
      if (i < names.size() && names[i] != ',') continue;
      const std::string name = names.substr(start, i - start);
      start = i + 1;
      for (const char* context : {"sw1", ""}) {
        const uint32_t index = registry.indexOf(context, name);
        if (index == 0 || index > 2147483647) __builtin_trap();  // InterfaceIndex is 1..2^31-1
        auto [it, fresh] = seen.emplace(std::make_pair(context, name), index);
        if (!fresh && it->second != index) __builtin_trap();
        if (fresh && !used[context].insert(index).second) __builtin_trap();
      }
    }
    start = 0;
  }
  std::remove(path.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      oidText(in);
      break;
    case 1:
      tableWalk(in);
      break;
    default:
      ifIndexState(in);
      break;
  }
  return 0;
}
