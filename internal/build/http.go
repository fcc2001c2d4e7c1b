package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// URLs is the Method of sources published as plain files at public URLs: lists that change
// every day (Tor exits, blocklists, DROP) or registries without a package (IANA, RIR
// statistics). No checksum can be pinned for them, so a fetched copy is kept for MaxAge and
// fetched again after that; if the new fetch fails, the cached copy keeps serving (with a
// warning). `data update --only NAME` refetches at once.
type URLs struct {
	// Files maps each file's path in the source's tree (the layout its parser reads, the
	// same as the mirror folder's) to its URL.
	Files []URLFile
	// MaxAge is how long a fetched copy is reused.
	MaxAge time.Duration
	// Client does the requests; nil means defaultURLClient.
	Client *http.Client
}

// URLFile is one file of a URLs source.
type URLFile struct {
	Path string // slash-separated path in the tree, e.g. "output/vpn/ipv4.txt"
	URL  string
	// Optional files may fail to download without failing the source.
	Optional bool
}

// defaultURLClient gives up quickly on a host that cannot be reached (a firewalled or
// air-gapped network), so that an update without a mirror is not held up for long.
var defaultURLClient = &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	DialContext:           (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
	TLSHandshakeTimeout:   10 * time.Second,
	ResponseHeaderTimeout: 30 * time.Second,
}}

// maxURLFileSize bounds one downloaded file: the largest list is a few MB; a response of
// 256 MiB is not a list.
const maxURLFileSize = 256 << 20

// Pin names the first URL's host and the file count. The version "live" names the cache
// folder; Checksum is empty since the content changes upstream.
func (m URLs) Pin() Pin {
	origin := "urls"
	if len(m.Files) > 0 {
		origin = m.Files[0].URL
		if len(m.Files) > 1 {
			origin += fmt.Sprintf(" and %d more", len(m.Files)-1)
		}
	}
	return Pin{Origin: origin, Version: "live", MaxAge: m.MaxAge}
}

// Fetch downloads every file into dir. The artifact's SHA-256 is over the files' SHA-256s
// in order, so two fetches of the same content have the same digest.
func (m URLs) Fetch(ctx context.Context, dir string) (Artifact, error) {
	client := m.Client
	if client == nil {
		client = defaultURLClient
	}
	all := sha256.New()
	var size int64
	got := 0
	for _, f := range m.Files {
		clean := path.Clean(f.Path)
		if clean != f.Path || path.IsAbs(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
			return Artifact{}, fmt.Errorf("urls: bad file path %q", f.Path)
		}
		sum, n, err := download(ctx, client, f.URL, filepath.Join(dir, filepath.FromSlash(clean)))
		if err != nil {
			if f.Optional {
				continue
			}
			return Artifact{}, err
		}
		fmt.Fprintf(all, "%s  %s\n", sum, clean)
		size += n
		got++
	}
	if got == 0 {
		return Artifact{}, errors.New("urls: no file could be downloaded")
	}
	return Artifact{SHA256: hex.EncodeToString(all.Sum(nil)), Size: size}, nil
}

func download(ctx context.Context, client *http.Client, url, dst string) (string, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", 0, err
	}
	req.Header.Set("User-Agent", "ipatlas-data-update")
	resp, err := client.Do(req)
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", 0, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", 0, err
	}
	out, err := os.Create(dst)
	if err != nil {
		return "", 0, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(resp.Body, maxURLFileSize+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", 0, fmt.Errorf("GET %s: %w", url, err)
	}
	if n > maxURLFileSize {
		return "", 0, fmt.Errorf("GET %s: larger than %d bytes", url, maxURLFileSize)
	}
	if n == 0 {
		return "", 0, fmt.Errorf("GET %s: empty", url)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
