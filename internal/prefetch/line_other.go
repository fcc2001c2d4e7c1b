//go:build !amd64 && !arm64

package prefetch

import "unsafe"

// Line does nothing on this architecture: it has no assembly version.
func Line(p unsafe.Pointer) {}
