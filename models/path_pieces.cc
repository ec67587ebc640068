#include "models/path_pieces.h"

#include "models/path.h"

namespace rdmagw {

PathPieces::PathPieces() : chunks_(std::make_unique<std::unique_ptr<Piece[]>[]>(kMaxChunks)) {}
PathPieces::~PathPieces() = default;

uint32_t PathPieces::intern(std::string_view text, bool is_prefix, std::string* error) {
  if (auto it = index_.find(text); it != index_.end()) return it->second;
  Piece made;
  made.text = std::string(text);
  if (is_prefix && !text.empty()) {
    Result<Path> parsed = Path::parse(text);
    if (!parsed.isOk()) {
      *error = parsed.status().message();
      return kNone;
    }
    made.keyless = parsed->keylessString();
    for (const PathElem& e : parsed->elems()) {
      for (const auto& kv : e.keys) made.labels.push_back(kv.second);
    }
  }
  uint32_t id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    if ((next_ >> kChunkBits) >= kMaxChunks) {
      *error = "too many distinct path pieces in the store";
      return kNone;
    }
    id = next_++;
    auto& chunk = chunks_[id >> kChunkBits];
    if (!chunk) chunk = std::make_unique<Piece[]>(size_t{1} << kChunkBits);
  }
  Piece& p = mutablePiece(id);
  p = std::move(made);
  index_.emplace(std::string_view(p.text), id);
  return id;
}

bool PathPieces::acquire(std::string_view prefix, std::string_view suffix, uint32_t* prefix_id,
                         uint32_t* suffix_id, std::string* error) {
  std::lock_guard lock(mu_);
  const uint32_t p = intern(prefix, true, error);
  if (p == kNone) return false;
  ++mutablePiece(p).refs;  // held while the suffix is made, so it cannot be reused
  const uint32_t s = intern(suffix, false, error);
  if (s == kNone) {  // only the piece limit fails here
    unref(p);
    return false;
  }
  ++mutablePiece(s).refs;
  *prefix_id = p;
  *suffix_id = s;
  return true;
}

void PathPieces::release(std::span<const uint32_t> ids) {
  std::lock_guard lock(mu_);
  for (uint32_t id : ids) unref(id);
}

void PathPieces::unref(uint32_t id) {
  Piece& p = mutablePiece(id);
  if (--p.refs != 0) return;
  index_.erase(std::string_view(p.text));
  p = Piece{};
  free_.push_back(id);
}

}  // namespace rdmagw
