#include "codecs/xml/prescan.hpp"

#include <bit>
#include <span>
#include <string>
#include <utility>

#include "codecs/codec.hpp"
#include "codecs/xml/prolog.hpp"

namespace wb::xml {

// A state machine over the marks (SpecialBytes: '<', '>', quotes, '&', C0
// controls) rather than a memchr call per '<' and per '>': a few
// instructions per mark. Knowing the quotes, a '>' inside an attribute value
// does not end its tag; comments, CDATA sections and PIs are skipped whole,
// so a '<' or a DOCTYPE inside them is not taken for markup.
namespace {
// What is skipped whole, up to its end: no markup inside counts.
constexpr std::pair<std::string_view, std::string_view> kSkipped[] = {
    {"<?", "?>"}, {"<!--", "-->"}, {"<![CDATA[", "]]>"}};

// The kSkipped entry that starts `rest` (at a "<!" or "<?"), or null. Out of
// line: rare, and the scan loop's registers stay its own.
[[gnu::noinline]] const std::pair<std::string_view, std::string_view>* skipped_at(
    std::string_view rest) {
  for (const auto& skipped : kSkipped)
    if (rest.starts_with(skipped.first)) return &skipped;
  return nullptr;
}

// Characters::scan_checks: a mark that char_data() would reject in text or
// an attribute value. Out of line: marks other than markup are rare ('&' in
// Atom etags), and the loop stays small.
[[gnu::noinline]] void check_character(std::string_view library, std::string_view input,
                                       std::size_t i, bool in_value, long long at) {
  if (const char* what =
          character_error(input.substr(i), in_value ? CharData::attribute : CharData::text))
    throw DecodeError(library, what, at);
}

// A C0 control byte that is not white space: never allowed in XML 1.0.
bool bad_control(char c) {
  return static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r';
}

// The scan proper, with the character checks compiled in or out.
template <Characters kCharacters>
void scan_marks(std::string_view library, std::string_view input, const SpecialBytes& marks,
                long long base) {
  constexpr bool kChecks = kCharacters == Characters::scan_checks;
  enum { content, start_tag, quoted, end_tag, until_close } state = content;
  int depth = 0;
  std::size_t tag = 0;         // start_tag / quoted: where its '<' is
  char quote = 0;              // quoted: which quote closes the value
  std::string_view close;      // until_close: "-->", "]]>" or "?>"
  std::size_t close_from = 0;  // ... to be found from here on
  const auto at = [&](std::size_t i) { return base + static_cast<long long>(i); };
  const std::span<const std::uint64_t> words = marks.words();
  for (std::size_t w = 0; w < words.size(); ++w)
    for (std::uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
      const std::size_t i = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
      const char c = input[i];
      switch (state) {
        case content: {
          if (c != '<') {
            if (kChecks && (c == '&' || bad_control(c)))
              check_character(library, input, i, false, at(i));
            continue;
          }
          const char next = i + 1 < input.size() ? input[i + 1] : '\0';
          if (next == '/') {
            --depth;
            state = end_tag;
          } else if (next != '!' && next != '?') {
            tag = i;  // a start tag (or a truncated '<': the parser reports it)
            state = start_tag;
          } else if (const auto* skipped = skipped_at(input.substr(i))) {
            close = skipped->second;
            close_from = i + skipped->first.size();
            state = until_close;
          } else if (input.substr(i).starts_with("<!DOCTYPE")) {
            throw DecodeError(library, std::string(kDoctypeRefused), at(i));
          }
          continue;
        }
        case start_tag:
          if (c == '"' || c == '\'') {
            quote = c;
            state = quoted;
          } else if (c == '>') {
            if (input[i - 1] != '/' && ++depth > kMaxDepth)
              throw DecodeError(library, "elements nested deeper than " + std::to_string(kMaxDepth),
                                at(tag));
            state = content;
          } else if (kChecks && bad_control(c)) {
            check_character(library, input, i, false, at(i));
          }
          continue;
        case quoted:
          if (c == quote)
            state = start_tag;
          else if (kChecks && (c == '&' || c == '<' || bad_control(c)))
            check_character(library, input, i, true, at(i));
          continue;
        case end_tag:
          if (c == '>')
            state = content;
          else if (kChecks && bad_control(c))
            check_character(library, input, i, false, at(i));
          continue;
        case until_close:
          if (c == '>' && i + 1 >= close_from + close.size() &&
              input.substr(i + 1 - close.size(), close.size()) == close)
            state = content;
          else if (kChecks && bad_control(c))
            check_character(library, input, i, false, at(i));
          continue;
      }
    }
}

}  // namespace

void reject_unbounded(std::string_view library, std::string_view input, SpecialBytes& marks,
                      long long base, Characters characters) {
  marks.scan(input);
  if (characters == Characters::scan_checks)
    scan_marks<Characters::scan_checks>(library, input, marks, base);
  else
    scan_marks<Characters::parser_checks>(library, input, marks, base);
}

}  // namespace wb::xml
