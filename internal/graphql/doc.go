// Package graphql is ipatlas's GraphQL interface: one schema per package (ip-geolocation,
// reverse-geocoding, phone-email, network-engineering, free-api), embedded as SDL files,
// and an executor that answers a query by projecting the JSON answers of the REST
// endpoints behind its root fields onto the query's selection set.
//
// There are no resolvers with logic of their own: each root field is one call of the
// Answerer, named in a table (roots.go) with the REST path; the field's arguments become
// that endpoint's query parameters under the same names. The commercial service's SDK
// shapes (ipData, locationData, network, asnInfoFull) are views over the answers
// (views.go), which move and rename members; two of them come from answers no REST endpoint
// serves (PathIPData, PathLocationData), and two of their fields (addressFamily,
// confidence's description) are written by the view from members of the answer. The SDKs'
// ipV4 and ipV6 are answers no REST endpoint serves either (PathIPv4Space, PathIPv6Space). The REST layer renders every answer as
// JSON once, so the GraphQL answer has the REST answer's values, and only the selected
// subtrees of that JSON are read. The package owns parsing and validation (github.com/vektah/gqlparser),
// the schemas and their SDL, introspection, variables, limits and the response format; the
// caller owns HTTP routing, keys, quotas and the REST handlers, reached through Answerer.
//
// Protection, all per request:
//
//   - Body: at most MaxBodyBytes (64 KiB) and MaxTokens (2000) GraphQL tokens.
//   - Depth: fields nest at most MaxDepth (10) levels, introspection fields excepted (the
//     validator already bounds how deep introspection may nest).
//   - Cost: at most MaxCost (5000). A root field that runs a lookup costs RootCost (100),
//     networkByCidr that times its depthLimit (rootScale), every other field 1, and fields
//     inside a list count once per element the list may hold: the page size argument for
//     paged lists (transitTo, receivingFrom and the list roots' entries: batchSize;
//     subnets: subnetsBatchSize; asnInfoFull's two lists: peersCap, 50 when absent or out
//     of range), 250 for countries, 4
//     for a country's isoAdminLanguages and 2 for its continents, 20 for the networks of a
//     CIDR range (nested networks once), DefaultListSize (10) for other lists, 1 for
//     introspection lists (their answers are precomputed). Arguments given as variables
//     count with their value.
//   - Selections, checked before validation (checkSelections says why): with fragments
//     expanded per use, at most MaxSameName (10) fields share a response name in one merged
//     selection set, at most MaxSpreads (32) fragment spreads go into one, and the document
//     has at most MaxSelections (10 000) selections; fragment cycles are refused first.
//   - Response: the data of one answer is at most MaxResponseBytes (2 MiB).
//   - Parsed and validated documents are kept in an LRU cache of CacheEntries (512)
//     queries of up to CacheMaxQuery (4 KiB) each, per Service.
//
// Introspection (__schema, __type, __typename) is always on; its answers are precomputed
// from the schema at start, so a full introspection query costs about as much as a lookup.
// No field or argument is deprecated; @defer is accepted and ignored (deferred fragments
// are answered in the one response).
package graphql
