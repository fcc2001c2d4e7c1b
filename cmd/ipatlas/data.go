package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strings"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasetbuild"
	"github.com/ipatlas/ipatlas/internal/mmdbexport"
	"github.com/ipatlas/ipatlas/internal/useragent"
)

func runDataUpdate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data update", stdout)
	dataDir := fs.String("data", "./var/data", "directory for the snapshot (the previous one is kept as .prev)")
	cacheDir := fs.String("cache", "./var/cache", "directory for fetched sources; a warm cache means no download")
	mirror := fs.String("mirror", "", "directory of sources laid out as DIR/<source-name>/, used instead of the network")
	offline := fs.Bool("offline", false, "never use the network: sources come from the mirror or the cache")
	only := fs.String("only", "", "comma-separated source names to fetch again even if cached")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var onlyList []string
	for s := range strings.SplitSeq(*only, ",") {
		if s = strings.TrimSpace(s); s != "" {
			onlyList = append(onlyList, s)
		}
	}
	res, err := build.Update(ctx, build.Options{
		DataDir: *dataDir, CacheDir: *cacheDir, MirrorDir: *mirror, Offline: *offline, Only: onlyList,
		Sections: datasetbuild.Sections(), Progress: stderr,
	})
	if errors.Is(err, build.ErrOptions) {
		return usageError{"data update: " + err.Error()}
	}
	if err != nil {
		return fmt.Errorf("data update: %w (the previous snapshot, if any, is unchanged)", err)
	}
	fmt.Fprintf(stdout, "snapshot %s (%d bytes), data as of %s, %d warnings\n", res.Path, res.Size, res.Metadata.BuildTime.Format("2006-01-02"), len(res.Warnings))
	return nil
}

func runDataInfo(args []string, stdout io.Writer) error {
	fs := newFlagSet("data info", stdout)
	dataDir := fs.String("data", "./var/data", "directory holding the snapshot")
	asJSON := fs.Bool("json", false, "print the metadata as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	md, err := build.Info(build.SnapshotPath(*dataDir))
	if err != nil {
		return fmt.Errorf("data info: %w", err)
	}
	md = useragent.WithSource(md) // compiled in, served with every snapshot
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(md)
	}
	build.WriteInfo(stdout, md)
	return nil
}

func runDataExport(ctx context.Context, args []string, stdout io.Writer) error {
	fs := newFlagSet("data export", stdout)
	dataDir := fs.String("data", "./var/data", "directory holding the snapshot")
	mmdbPath := fs.String("mmdb", "", "write the IP data to this MaxMind DB file")
	only := fs.String("within", "", "comma-separated CIDRs: export only the networks that overlap them (default: everything)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *mmdbPath == "" {
		return usageError{"data export: --mmdb FILE is required"}
	}
	var within []netip.Prefix
	for s := range strings.SplitSeq(*only, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return usageError{fmt.Sprintf("data export: %s %q: %v", fs.origin("within"), s, err)}
		}
		within = append(within, p.Masked())
	}
	snap, err := dataset.Load(build.SnapshotPath(*dataDir))
	if err != nil {
		return fmt.Errorf("data export: %w", err)
	}
	// Write beside the target and rename, so a reader never opens half a file.
	tmp, err := os.CreateTemp(filepath.Dir(*mmdbPath), filepath.Base(*mmdbPath)+".*.tmp")
	if err != nil {
		return fmt.Errorf("data export: %w", err)
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 1<<20)
	st, err := mmdbexport.Write(ctx, bw, snap.IPGeo, snap.Net, mmdbexport.Options{Within: within, Built: snap.Meta.BuildTime})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = context.Cause(ctx) // stopped during the final write: publish nothing
	}
	if err == nil {
		err = os.Rename(tmp.Name(), *mmdbPath)
	}
	if err != nil {
		return fmt.Errorf("data export: %w", err)
	}
	fmt.Fprintf(stdout, "%s: %d geolocation networks, %d announced prefixes\n", *mmdbPath, st.Places, st.Announced)
	return nil
}
