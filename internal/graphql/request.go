package graphql

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// Request is a GraphQL-over-HTTP request body.
type Request struct {
	Query         string
	OperationName string
	Variables     map[string]json.RawMessage
}

// RequestError says why a body is not a GraphQL request; the caller answers it with HTTP
// 400 and the service's JSON error body, as GraphQL-over-HTTP asks for bodies that are not
// well-formed requests.
type RequestError struct{ Msg string }

func (e *RequestError) Error() string { return e.Msg }

const requestShape = `Send a JSON object: {"query": "{ ... }", "variables": {...}, "operationName": "..."}, with Content-Type: application/json.`

func badRequest(msg string) error { return &RequestError{Msg: msg + " " + requestShape} }

// ParseRequest decodes a request body. Members other than query, variables and
// operationName (such as extensions) are ignored.
func ParseRequest(body []byte) (Request, error) {
	var raw struct {
		Query         *string                    `json:"query"`
		OperationName *string                    `json:"operationName"`
		Variables     map[string]json.RawMessage `json:"variables"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return Request{}, badRequest("The request body is empty.")
	}
	if trimmed[0] != '{' {
		return Request{}, badRequest("The request body is not a JSON object.")
	}
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return Request{}, badRequest("The request body is not valid JSON: " + syn.Error() + ".")
		case errors.As(err, &typ) && strings.EqualFold(typ.Field, "query"):
			return Request{}, badRequest("query must be a string holding the GraphQL document.")
		case errors.As(err, &typ) && strings.EqualFold(typ.Field, "operationName"):
			return Request{}, badRequest("operationName must be a string (or null).")
		case errors.As(err, &typ) && strings.HasPrefix(strings.ToLower(typ.Field), "variables"):
			return Request{}, badRequest("variables must be a JSON object (or null).")
		}
		return Request{}, badRequest("The request body is not a GraphQL request.")
	}
	if raw.Query == nil {
		return Request{}, badRequest("The request body has no query.")
	}
	if strings.TrimSpace(*raw.Query) == "" {
		return Request{}, badRequest("The query is empty.")
	}
	req := Request{Query: *raw.Query, Variables: raw.Variables}
	if raw.OperationName != nil {
		req.OperationName = *raw.OperationName
	}
	return req, nil
}
