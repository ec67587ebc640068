// Keeps proto/ true to gNMI 0.10.0: parses tests/fixtures/gnmi/
// gnmi-wire-reference.md (message, field, number, type, oneof, enum value,
// reserved and service lines) and compares it with the compiled descriptors.
// Every message, field, number, label, map/oneof membership and enum value
// must match, both ways (nothing missing, nothing extra).

#include <gtest/gtest.h>
#include <google/protobuf/descriptor.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gnmi.pb.h"

namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::FileDescriptor;

struct RefField {
  int number;
  std::string name, type, oneof;
  bool repeated = false;
  bool map = false;
};

struct RefMessage {
  std::vector<RefField> fields;
  std::set<int> reserved_numbers;
  std::set<std::string> reserved_names;
};

struct RefMethod {
  std::string name, in, out;
  bool stream_in = false, stream_out = false;
};

struct Reference {
  std::map<std::string, RefMessage> messages;                   // full name
  std::map<std::string, std::map<std::string, int>> enums;      // full name -> values
  std::vector<RefMethod> methods;                               // service gnmi.gNMI
  size_t lines_read = 0;
};

Reference parseReference(const std::string& text) {
  Reference ref;
  std::string package;
  std::regex pkg(R"(^## package `(\w+)`)");
  std::regex msg(R"(^message `([\w.]+)`:)");
  std::regex en(R"(^enum `([\w.]+)`:)");
  std::regex field(R"(^\s*- `([\w.]+)` field (\d+): `(\w+)` \((.+)\)\s*$)");
  std::regex value(R"(^\s*- enum `([\w.]+)` value (\w+) = (\d+))");
  std::regex reserved_num(R"(^\s*- `([\w.]+)` reserved (\d+)\s*$)");
  std::regex reserved_name(R"re(^\s*- `([\w.]+)` reserved "(\w+)")re");
  std::regex method(R"(^- (\w+): (stream )?(\w+) -> (stream )?(\w+)\s*$)");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    auto full = [&](const std::string& n) { return package + "." + n; };
    if (std::regex_search(line, m, pkg)) {
      package = m[1];
    } else if (std::regex_search(line, m, msg)) {
      ref.messages[full(m[1])];
    } else if (std::regex_search(line, m, en)) {
      ref.enums[full(m[1])];
    } else if (std::regex_search(line, m, field)) {
      RefField f{std::stoi(m[2]), m[3], m[4], ""};
      std::string type = f.type;
      std::smatch o;
      if (std::regex_search(type, o, std::regex(R"(^(.*), in oneof `(\w+)`$)"))) {
        f.oneof = o[2];
        type = o[1];
      }
      if (type.rfind("repeated ", 0) == 0) {
        f.repeated = true;
        type = type.substr(9);
      }
      if (type.rfind("map<", 0) == 0) f.map = f.repeated = true;
      f.type = type;
      ref.messages[full(m[1])].fields.push_back(f);
    } else if (std::regex_search(line, m, value)) {
      ref.enums[full(m[1])][m[2]] = std::stoi(m[3]);
    } else if (std::regex_search(line, m, reserved_num)) {
      ref.messages[full(m[1])].reserved_numbers.insert(std::stoi(m[2]));
    } else if (std::regex_search(line, m, reserved_name)) {
      ref.messages[full(m[1])].reserved_names.insert(m[2]);
    } else if (package == "gnmi" && std::regex_search(line, m, method)) {
      ref.methods.push_back({m[1], m[3], m[5], m[2].matched, m[4].matched});
    } else {
      continue;
    }
    ++ref.lines_read;
  }
  return ref;
}

std::string readReference() {
  std::ifstream in(std::string(RDMAGW_SOURCE_DIR) + "/tests/fixtures/gnmi/gnmi-wire-reference.md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The reference's type words against a field descriptor.
void expectType(const FieldDescriptor* fd, const RefField& rf, const std::string& pkg) {
  SCOPED_TRACE(fd->full_name());
  if (rf.map) {
    ASSERT_TRUE(fd->is_map());
    std::smatch m;
    ASSERT_TRUE(std::regex_search(rf.type, m, std::regex(R"(^map<(\w+), (\w+)>$)")));
    EXPECT_EQ(fd->message_type()->map_key()->type_name(), m[1].str());
    EXPECT_EQ(fd->message_type()->map_value()->type_name(), m[2].str());
    return;
  }
  EXPECT_FALSE(fd->is_map());
  if (fd->type() == FieldDescriptor::TYPE_MESSAGE) {
    std::string want = rf.type.find('.') != std::string::npos ? rf.type : pkg + "." + rf.type;
    EXPECT_EQ(fd->message_type()->full_name(), want);
  } else if (fd->type() == FieldDescriptor::TYPE_ENUM) {
    // Nested enums are named by their short name ("Mode", "Operation").
    const EnumDescriptor* e = fd->enum_type();
    EXPECT_TRUE(e->full_name() == pkg + "." + rf.type || e->name() == rf.type) << e->full_name();
  } else {
    EXPECT_EQ(fd->type_name(), rf.type);
  }
}

class GnmiWire : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ref_ = new Reference(parseReference(readReference())); }
  static Reference* ref_;
};
Reference* GnmiWire::ref_ = nullptr;

TEST_F(GnmiWire, ReferenceParsed) {
  EXPECT_GT(ref_->lines_read, 150u);
  EXPECT_EQ(ref_->messages.count("gnmi.Notification"), 1u);
  EXPECT_EQ(ref_->messages.count("gnmi_ext.Extension"), 1u);
  EXPECT_EQ(ref_->messages["gnmi.TypedValue"].fields.size(), 14u);
  EXPECT_EQ(ref_->enums["gnmi.SubscriptionList.Mode"].size(), 3u);
  EXPECT_EQ(ref_->methods.size(), 4u);
}

TEST_F(GnmiWire, EveryMessageAndFieldMatches) {
  const DescriptorPool* pool = DescriptorPool::generated_pool();
  ASSERT_EQ(gnmi::Notification::descriptor()->file()->pool(), pool);
  for (const auto& [name, rm] : ref_->messages) {
    SCOPED_TRACE(name);
    const Descriptor* d = pool->FindMessageTypeByName(name);
    if (!d) {
      ADD_FAILURE() << "missing message " << name;
      continue;
    }
    std::string pkg = d->file()->package();
    EXPECT_EQ(d->field_count(), static_cast<int>(rm.fields.size())) << "extra or missing fields";
    for (const RefField& rf : rm.fields) {
      const FieldDescriptor* fd = d->FindFieldByNumber(rf.number);
      if (!fd) {
        ADD_FAILURE() << "no field " << rf.number << " (" << rf.name << ")";
        continue;
      }
      EXPECT_EQ(fd->name(), rf.name);
      EXPECT_EQ(fd->is_repeated(), rf.repeated) << rf.name;
      const auto* oneof = fd->real_containing_oneof();
      EXPECT_EQ(oneof ? oneof->name() : "", rf.oneof) << rf.name;
      expectType(fd, rf, pkg);
    }
    for (int n : rm.reserved_numbers) EXPECT_TRUE(d->IsReservedNumber(n)) << n;
    for (const std::string& n : rm.reserved_names) EXPECT_TRUE(d->IsReservedName(n)) << n;
    EXPECT_EQ(d->reserved_range_count(), static_cast<int>(rm.reserved_numbers.size()));
    EXPECT_EQ(d->reserved_name_count(), static_cast<int>(rm.reserved_names.size()));
  }
}

TEST_F(GnmiWire, EveryEnumValueMatches) {
  const DescriptorPool* pool = DescriptorPool::generated_pool();
  for (const auto& [name, values] : ref_->enums) {
    SCOPED_TRACE(name);
    const EnumDescriptor* e = pool->FindEnumTypeByName(name);
    if (!e) {
      ADD_FAILURE() << "missing enum " << name;
      continue;
    }
    EXPECT_EQ(e->value_count(), static_cast<int>(values.size()));
    for (const auto& [v, n] : values) {
      const auto* vd = e->FindValueByName(v);
      ASSERT_NE(vd, nullptr) << v;
      EXPECT_EQ(vd->number(), n) << v;
    }
  }
}

// Nothing in our .proto files that the reference does not list.
TEST_F(GnmiWire, NoExtraMessagesOrEnums) {
  const FileDescriptor* gnmi_file = gnmi::Notification::descriptor()->file();
  const FileDescriptor* ext_file = DescriptorPool::generated_pool()->FindFileByName("gnmi_ext.proto");
  ASSERT_NE(ext_file, nullptr);
  for (const FileDescriptor* f : {gnmi_file, ext_file}) {
    for (int i = 0; i < f->message_type_count(); ++i) {
      const Descriptor* d = f->message_type(i);
      EXPECT_EQ(ref_->messages.count(d->full_name()), 1u) << "not in the reference: " << d->full_name();
      for (int j = 0; j < d->enum_type_count(); ++j) {
        EXPECT_EQ(ref_->enums.count(d->enum_type(j)->full_name()), 1u) << d->enum_type(j)->full_name();
      }
      EXPECT_EQ(d->nested_type_count() - [&] {
        int maps = 0;
        for (int j = 0; j < d->nested_type_count(); ++j) maps += d->nested_type(j)->options().map_entry();
        return maps;
      }(), 0) << d->full_name();
    }
    for (int i = 0; i < f->enum_type_count(); ++i) {
      EXPECT_EQ(ref_->enums.count(f->enum_type(i)->full_name()), 1u) << f->enum_type(i)->full_name();
    }
  }
}

TEST_F(GnmiWire, ServiceAndVersion) {
  const auto* svc = DescriptorPool::generated_pool()->FindServiceByName("gnmi.gNMI");
  ASSERT_NE(svc, nullptr);
  EXPECT_EQ(svc->method_count(), static_cast<int>(ref_->methods.size()));
  for (const RefMethod& rm : ref_->methods) {
    const auto* md = svc->FindMethodByName(rm.name);
    ASSERT_NE(md, nullptr) << rm.name;
    EXPECT_EQ(md->input_type()->full_name(), "gnmi." + rm.in);
    EXPECT_EQ(md->output_type()->full_name(), "gnmi." + rm.out);
    EXPECT_EQ(md->client_streaming(), rm.stream_in) << rm.name;
    EXPECT_EQ(md->server_streaming(), rm.stream_out) << rm.name;
  }
  EXPECT_EQ(gnmi::Notification::descriptor()->file()->options().GetExtension(gnmi::gnmi_service), "0.10.0");
  EXPECT_EQ(gnmi::Notification::descriptor()->file()->package(), "gnmi");
}

}  // namespace
