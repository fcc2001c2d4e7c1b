package graphql

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGraphQLParseRequest(t *testing.T) {
	tests := []struct {
		name, body string
		want       Request
		err        string // substring of the RequestError; "" for success
	}{
		{"query only", `{"query":"{ a }"}`, Request{Query: "{ a }"}, ""},
		{"everything", `{"query":"query A { a }","operationName":"A","variables":{"x":1},"extensions":{"persistedQuery":{}}}`,
			Request{Query: "query A { a }", OperationName: "A", Variables: map[string]json.RawMessage{"x": json.RawMessage("1")}}, ""},
		{"nulls", `{"query":"{ a }","operationName":null,"variables":null}`, Request{Query: "{ a }"}, ""},
		{"empty", ``, Request{}, "body is empty"},
		{"not JSON", `query { a }`, Request{}, "not a JSON object"},
		{"array", `[{"query":"{ a }"}]`, Request{}, "not a JSON object"},
		{"broken JSON", `{"query": "{ a }"`, Request{}, "not valid JSON"},
		{"no query", `{"variables":{}}`, Request{}, "has no query"},
		{"query not a string", `{"query":{"a":1}}`, Request{}, "query must be a string"},
		{"blank query", `{"query":"  "}`, Request{}, "query is empty"},
		{"variables not an object", `{"query":"{ a }","variables":[1]}`, Request{}, "variables must be a JSON object"},
		{"variables a string", `{"query":"{ a }","variables":"{}"}`, Request{}, "variables must be a JSON object"},
		{"operationName not a string", `{"query":"{ a }","operationName":1}`, Request{}, "operationName must be a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRequest([]byte(tt.body))
			if tt.err != "" {
				re, ok := err.(*RequestError)
				if !ok || !strings.Contains(re.Msg, tt.err) || !strings.Contains(re.Msg, `{"query":`) {
					t.Fatalf("error %v, want a RequestError containing %q and the expected shape", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
