#ifndef SMALLFIX_ENGINE_FORGE_LINK_HEADER_H_
#define SMALLFIX_ENGINE_FORGE_LINK_HEADER_H_

#include <string>
#include <string_view>

namespace smallfix {

// The URL of the `rel="next"` entry of an RFC 8288 Link header, as GitHub sends it for
// paginated lists (`<https://api.github.com/...?page=2>; rel="next", <...>; rel="last"`);
// "" when there is no next page or the header cannot be read.
std::string NextPageUrl(std::string_view link_header);

}  // namespace smallfix

#endif  // SMALLFIX_ENGINE_FORGE_LINK_HEADER_H_
