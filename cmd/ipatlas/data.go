package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/dataset/datasetbuild"
)

func runDataUpdate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data update", stderr)
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
	if err != nil {
		return fmt.Errorf("data update: %w (the previous snapshot, if any, is unchanged)", err)
	}
	fmt.Fprintf(stdout, "snapshot %s (%d bytes), data as of %s, %d warnings\n", res.Path, res.Size, res.Metadata.BuildTime.Format("2006-01-02"), len(res.Warnings))
	return nil
}

func runDataInfo(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data info", stderr)
	dataDir := fs.String("data", "./var/data", "directory holding the snapshot")
	asJSON := fs.Bool("json", false, "print the metadata as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	md, err := build.Info(build.SnapshotPath(*dataDir))
	if err != nil {
		return fmt.Errorf("data info: %w", err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(md)
	}
	build.WriteInfo(stdout, md)
	return nil
}
