#include "northbound/snmp/netsnmp_value.h"

#include <algorithm>

namespace rdmagw::northbound::snmp {

size_t toArcs(const oid* name, size_t length, uint32_t* out) {
  const size_t n = std::min<size_t>(length, MAX_OID_LEN);
  for (size_t i = 0; i < n; ++i) out[i] = uint32_t(std::min<oid>(name[i], 0xffffffffu));
  return n;
}

void setVarValue(netsnmp_variable_list* vb, const CellView& cell) {
  switch (cell.type) {
    case SnmpType::kInteger: {
      long v = int32_t(uint32_t(cell.number));
      snmp_set_var_typed_value(vb, ASN_INTEGER, &v, sizeof(v));
      break;
    }
    case SnmpType::kOctetString:
      snmp_set_var_typed_value(vb, ASN_OCTET_STR, cell.text.data(), cell.text.size());
      break;
    case SnmpType::kCounter32:
    case SnmpType::kGauge32:
    case SnmpType::kTimeTicks: {
      u_long v = u_long(cell.number & 0xffffffffu);
      u_char type = cell.type == SnmpType::kCounter32 ? ASN_COUNTER
                    : cell.type == SnmpType::kGauge32 ? ASN_GAUGE
                                                       : ASN_TIMETICKS;
      snmp_set_var_typed_value(vb, type, &v, sizeof(v));
      break;
    }
    case SnmpType::kCounter64: {
      counter64 c{};
      c.high = u_long(cell.number >> 32);
      c.low = u_long(cell.number & 0xffffffffu);
      snmp_set_var_typed_value(vb, ASN_COUNTER64, &c, sizeof(c));
      break;
    }
    case SnmpType::kAbsent:
      snmp_set_var_typed_value(vb, SNMP_NOSUCHINSTANCE, nullptr, 0);
      break;
  }
}

}  // namespace rdmagw::northbound::snmp
