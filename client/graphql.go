package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// GraphQL packages, for Client.GraphQL. FreeAPI needs no key.
const (
	PackageIPGeolocation      = "ip-geolocation"
	PackageReverseGeocoding   = "reverse-geocoding"
	PackagePhoneEmail         = "phone-email"
	PackageNetworkEngineering = "network-engineering"
	PackageFreeAPI            = "free-api"
)

// GraphQLRequest is a GraphQL query with its variables.
type GraphQLRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables,omitempty"`
	OperationName string         `json:"operationName,omitempty"`
}

// GraphQLResponse is a GraphQL answer. Errors inside the query (syntax, validation, a
// lookup that failed) are in Errors, not returned as a Go error; Data holds the selected
// fields as JSON, for json.Unmarshal into the caller's own type.
type GraphQLResponse struct {
	Errors []GraphQLError  `json:"errors,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"` // nil when the request failed before execution
}

// GraphQLError is one entry of a GraphQL answer's errors.
type GraphQLError struct {
	Message    string                 `json:"message"`
	Locations  []GraphQLLocation      `json:"locations,omitempty"`
	Path       []any                  `json:"path,omitempty"` // response keys (string) and list indexes (number)
	Extensions GraphQLErrorExtensions `json:"extensions"`
}

// GraphQLLocation is a position in the query.
type GraphQLLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// GraphQLErrorExtensions classify an error.
type GraphQLErrorExtensions struct {
	Code   string `json:"code"`             // such as GRAPHQL_VALIDATION_FAILED or LOOKUP_FAILED
	Status int    `json:"status,omitempty"` // the REST status behind a failed lookup
	// RetryAfterSeconds is the wait a refused lookup (429, 503) asks for, as Retry-After
	// would for a REST call (Error.RetryAfter); 0 when it asks none.
	RetryAfterSeconds int `json:"retryAfter,omitempty"`
}

// GraphQL sends a query to /graphql/{pkg}. The key is sent for every package but
// PackageFreeAPI. A request the server refuses as a whole (bad key, volume used up, a body
// that is not a GraphQL request) is an *Error.
func (c *Client) GraphQL(ctx context.Context, pkg string, r GraphQLRequest) (*GraphQLResponse, error) {
	if pkg == "" || strings.ContainsAny(pkg, "/?#%") {
		return nil, fmt.Errorf("client: %q is not a GraphQL package name", pkg)
	}
	body, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("client: encode the GraphQL request: %w", err)
	}
	auth := withKey
	if pkg == PackageFreeAPI {
		auth = keyless
	}
	var out GraphQLResponse
	if err := c.do(ctx, http.MethodPost, "/graphql/"+pkg, nil, body, auth, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
