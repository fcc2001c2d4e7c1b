package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	stdlog "log"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns their paths and a
// pool trusting the certificate.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ipatlas test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

func TestServeTLSWithHTTP2(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "tls@example.org")
	certFile, keyFile, pool := selfSigned(t, e.dir)
	s := e.serve("--tls-cert", certFile, "--tls-key", keyFile)
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true,
	}}
	resp, err := c.Get(strings.Replace(s.base, "http://", "https://", 1) + "/data/country-info?code=IE&key=" + key)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Proto != "HTTP/2.0" {
		t.Errorf("got %d over %s, want 200 over HTTP/2.0", resp.StatusCode, resp.Proto)
	}
}

// TestServeTLSFilesCheckedFirst: a missing certificate or a key of another pair fails serve
// before it looks for a snapshot (here there is none), naming the flags.
func TestServeTLSFilesCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile, _ := selfSigned(t, dir)
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o755)
	_, otherKey, _ := selfSigned(t, other)
	for _, tc := range []struct{ cert, key, want string }{
		{filepath.Join(dir, "nope.pem"), keyFile, "no such file"},
		{certFile, otherKey, "private key does not match public key"},
	} {
		err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", filepath.Join(dir, "no-data"),
			"--store", "sqlite:" + filepath.Join(dir, "a.db"), "--tls-cert", tc.cert, "--tls-key", tc.key}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "serve: --tls-cert, --tls-key: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("cert %s, key %s: %v, want the TLS error first", tc.cert, tc.key, err)
		}
	}
}

// TestHTTPErrorLog: net/http's messages reach the service's log in its format, handshake
// failures at Info (routine noise), anything else at Warn.
func TestHTTPErrorLog(t *testing.T) {
	var buf strings.Builder
	l := stdlog.New(httpErrorLog{slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))}, "", 0)
	l.Printf("http: TLS handshake error from 127.0.0.1:1: EOF")
	l.Printf("http: Accept error: too many open files; retrying in 5ms")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"level":"INFO","msg":"http: TLS handshake error from 127.0.0.1:1: EOF"`) ||
		!strings.Contains(lines[1], `"level":"WARN","msg":"http: Accept error: too many open files; retrying in 5ms"`) {
		t.Errorf("log:\n%s", buf.String())
	}
}
