package api

import (
	"net/http"
	"strconv"

	"github.com/ipatlas/ipatlas/internal/web"
)

// The risk, phone, reverse-geocoding and roaming bodies are small and flat, so they are
// appended by hand into a pooled buffer instead of going through encoding/json's
// reflection: the answer costs a few hundred nanoseconds of copying. placesAppendString
// escapes exactly as web.Marshal does (no HTML escaping; U+2028, U+2029 and invalid UTF-8
// as encoding/json writes them), which a test checks.

// placesAppendField appends `,"key":"value"` (or without the comma when first).
func placesAppendField(b []byte, first bool, key, value string) []byte {
	b = placesAppendKey(b, first, key)
	return web.AppendJSONString(b, value)
}

// placesAppendKey appends `,"key":`; keys are constants that need no escaping.
func placesAppendKey(b []byte, first bool, key string) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func placesAppendBool(b []byte, first bool, key string, v bool) []byte {
	b = placesAppendKey(b, first, key)
	return strconv.AppendBool(b, v)
}

func placesAppendInt(b []byte, first bool, key string, v int) []byte {
	b = placesAppendKey(b, first, key)
	return strconv.AppendInt(b, int64(v), 10)
}

// placesAppendFloat appends a coordinate in its shortest exact decimal form.
func placesAppendFloat(b []byte, first bool, key string, v float64) []byte {
	b = placesAppendKey(b, first, key)
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// writeJSONPooled writes b (grown from *bp) as a 200 answer and returns the buffer to the
// pool.
func writeJSONPooled(w http.ResponseWriter, bp *[]byte, b []byte) {
	writeJSONStatusPooled(w, http.StatusOK, bp, b)
}

func writeJSONStatusPooled(w http.ResponseWriter, code int, bp *[]byte, b []byte) {
	web.WriteJSONBytes(w, code, b)
	if cap(b) <= 64<<10 { // keep the pool from holding on to the odd huge buffer
		*bp = b
		bufPool.Put(bp)
	}
}
