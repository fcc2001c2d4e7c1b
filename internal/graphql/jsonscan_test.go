package graphql

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGraphQLScanObject(t *testing.T) {
	in := ` { "a" : 1 , "b":"x\"}]" ,"c":{"d":[1,{"e":"]"}]},"f":[] , "g":null,"h":-1.5e3 } `
	ms, ok := scanObject([]byte(in), nil)
	if !ok {
		t.Fatal("not ok")
	}
	got := map[string]string{}
	for _, m := range ms {
		got[string(m.key)] = string(m.val)
	}
	want := map[string]string{"a": "1", "b": `"x\"}]"`, "c": `{"d":[1,{"e":"]"}]}`, "f": "[]", "g": "null", "h": "-1.5e3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `[1]`, `{"a":"x`, `{"a":[1,2}`} {
		if _, ok := scanObject([]byte(bad), nil); ok {
			t.Errorf("scanObject(%q) ok", bad)
		}
	}
}

func TestGraphQLArrayIter(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{`[]`, nil, false},
		{` [ 1 , "a,]" ,{"b":[2]}, null ] `, []string{"1", `"a,]"`, `{"b":[2]}`, "null"}, false},
		{`[1 2]`, []string{"1"}, true},
		{`[1,`, []string{"1"}, true},
		{`{}`, nil, true},
		{``, nil, true},
	} {
		it := newArrayIter([]byte(tt.in))
		var got []string
		for it.next() {
			got = append(got, string(it.val))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" || it.bad != tt.bad {
			t.Errorf("%q: bad %v (-want +got):\n%s", tt.in, it.bad, diff)
		}
	}
}

// FuzzScan checks that the scanner never panics and, on valid JSON objects, agrees with
// encoding/json about the members.
func FuzzGraphQLScan(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":{"b":[1,"]"]},"c":"\\\""}`, `{`, `[1,2]`, `{"a":[{"b":}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, ok := scanObject(b, nil)
		for _, m := range ms {
			it := newArrayIter(m.val)
			for it.next() {
			}
		}
		var want map[string]json.RawMessage
		if json.Unmarshal(b, &want) != nil || !ok {
			return
		}
		for _, m := range ms {
			var k string
			if json.Unmarshal(append(append([]byte{'"'}, m.key...), '"'), &k) != nil {
				t.Fatalf("key %q", m.key)
			}
			if w, found := want[k]; !found || !json.Valid(m.val) || len(m.val) == 0 {
				t.Fatalf("member %q = %q; encoding/json has %q", k, m.val, w)
			}
		}
	})
}
