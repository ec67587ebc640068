#pragma once
// Store-wide interned pieces of series paths, so a million series do not
// each hold their own path text. A path splits after
// its last key into a prefix and a leaf suffix:
//   /rdma/devices/device[name=mlx5_0]/ports/port[port-num=1] | /state/hw-counters/np-cnp-sent
// A fabric repeats both across targets (every host has mlx5_0 port 1, every
// switch Ethernet1/1), so each is held once per store, with the prefix's
// parsed label values, and a series refers to them by 32-bit id.
//
// Threads: acquire/release take the table's own lock. piece(id) takes none:
// pieces live in chunks that never move, a piece does not change while any
// series holds it, and a reader only sees ids through the shard lock of a
// writer that acquired them, which orders the piece's creation before it.

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rdmagw {

class PathPieces {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  struct Piece {
    std::string text;
    std::string keyless;              // prefixes: the text with its keys dropped
    std::vector<std::string> labels;  // prefixes: every key value, path order
    uint32_t refs = 0;
  };

  PathPieces();
  ~PathPieces();
  PathPieces(const PathPieces&) = delete;
  PathPieces& operator=(const PathPieces&) = delete;

  // Takes one reference on each piece, creating them as needed. An empty
  // prefix is the keyless group. False with the parser's reason in *error
  // when the prefix is no valid path.
  bool acquire(std::string_view prefix, std::string_view suffix, uint32_t* prefix_id,
               uint32_t* suffix_id, std::string* error);
  // Drops references; `ids` holds prefix/suffix id pairs. One lock per call.
  void release(std::span<const uint32_t> ids);

  const Piece& piece(uint32_t id) const { return chunks_[id >> kChunkBits][id & kChunkMask]; }

 private:
  static constexpr uint32_t kChunkBits = 12;
  static constexpr uint32_t kChunkMask = (1u << kChunkBits) - 1;
  static constexpr uint32_t kMaxChunks = 1u << 14;  // 64M distinct pieces
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  uint32_t intern(std::string_view text, bool is_prefix, std::string* error);  // lock held
  void unref(uint32_t id);                                                      // lock held
  Piece& mutablePiece(uint32_t id) { return chunks_[id >> kChunkBits][id & kChunkMask]; }

  std::mutex mu_;
  std::unique_ptr<std::unique_ptr<Piece[]>[]> chunks_;  // slots written under mu_
  uint32_t next_ = 0;                                     // guarded by mu_
  std::vector<uint32_t> free_;                            // guarded by mu_
  // Prefix and suffix texts never collide: a prefix ends with ']' or is
  // empty, a suffix is empty or ends with a name. Empty is the group "".
  std::unordered_map<std::string_view, uint32_t, Hash, std::equal_to<>> index_;  // guarded by mu_
};

}  // namespace rdmagw
