// Package deploy holds the Kubernetes manifests and their test; it has no Go code of its own.
package deploy

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// object is the part of a Kubernetes object the checks read.
type object struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec yaml.Node `yaml:"spec"`
}

type podSpec struct {
	Containers []struct {
		Name  string   `yaml:"name"`
		Image string   `yaml:"image"`
		Args  []string `yaml:"args"`
		Env   []struct {
			Name      string `yaml:"name"`
			ValueFrom struct {
				SecretKeyRef struct{ Name, Key string } `yaml:"secretKeyRef"`
			} `yaml:"valueFrom"`
		} `yaml:"env"`
		Ports []struct {
			Name          string `yaml:"name"`
			ContainerPort int    `yaml:"containerPort"`
		} `yaml:"ports"`
		ReadinessProbe struct {
			HTTPGet struct {
				Path string `yaml:"path"`
				Port string `yaml:"port"`
			} `yaml:"httpGet"`
		} `yaml:"readinessProbe"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	} `yaml:"containers"`
	Volumes []struct {
		Name string `yaml:"name"`
		PVC  struct {
			ClaimName string `yaml:"claimName"`
		} `yaml:"persistentVolumeClaim"`
	} `yaml:"volumes"`
}

func load(t *testing.T, file string) object {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var o object
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(false)
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if o.APIVersion == "" || o.Kind == "" || o.Metadata.Name == "" {
		t.Fatalf("%s: apiVersion, kind and metadata.name are required; got %q %q %q", file, o.APIVersion, o.Kind, o.Metadata.Name)
	}
	return o
}

func decodeSpec(t *testing.T, n yaml.Node, path []string, v any) {
	t.Helper()
	cur := &n
	for _, key := range path {
		var next *yaml.Node
		for i := 0; i+1 < len(cur.Content); i += 2 {
			if cur.Content[i].Value == key {
				next = cur.Content[i+1]
			}
		}
		if next == nil {
			t.Fatalf("spec has no %s", strings.Join(path, "."))
		}
		cur = next
	}
	if err := cur.Decode(v); err != nil {
		t.Fatal(err)
	}
}

// flagsOf returns the flag names `ipatlas <command> -h` lists.
func flagsOf(t *testing.T, bin string, command ...string) []string {
	t.Helper()
	out, _ := exec.Command(bin, append(command, "-h")...).CombinedOutput()
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	re := regexp.MustCompile(`^  -([a-z0-9-]+)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			names = append(names, m[1])
		}
	}
	if len(names) == 0 {
		t.Fatalf("ipatlas %v -h listed no flags:\n%s", command, out)
	}
	return names
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ipatlas")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/ipatlas").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// checkFlags fails for every --flag in args that the command does not have.
func checkFlags(t *testing.T, where string, args, known []string) {
	t.Helper()
	for _, a := range args {
		if name, ok := strings.CutPrefix(a, "--"); ok {
			name, _, _ = strings.Cut(name, "=")
			if !slices.Contains(known, name) {
				t.Errorf("%s: flag --%s does not exist (known: %v)", where, name, known)
			}
		}
	}
}

// TestManifests: every manifest parses, kustomization lists them all, and they agree with
// each other (labels, ports, claims, the Secret) and with the binary's real flags.
func TestManifests(t *testing.T) {
	bin := buildBinary(t)
	serveFlags := flagsOf(t, bin, "serve")

	var kust struct{ Resources []string }
	b, err := os.ReadFile("kustomization.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &kust); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.yaml")
	for _, f := range files {
		if f != "kustomization.yaml" && f != "secret.example.yaml" && !slices.Contains(kust.Resources, f) {
			t.Errorf("kustomization.yaml does not list %s", f)
		}
	}
	for _, r := range kust.Resources {
		load(t, r)
	}

	secret := load(t, "secret.example.yaml")
	raw, _ := os.ReadFile("secret.example.yaml")
	var s struct {
		StringData map[string]string `yaml:"stringData"`
	}
	if err := yaml.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}

	pvc := load(t, "pvc.yaml")

	dep := load(t, "deployment.yaml")
	if dep.Kind != "Deployment" {
		t.Fatalf("deployment.yaml is a %s", dep.Kind)
	}
	var selector map[string]string
	decodeSpec(t, dep.Spec, []string{"selector", "matchLabels"}, &selector)
	var podLabels map[string]string
	decodeSpec(t, dep.Spec, []string{"template", "metadata", "labels"}, &podLabels)
	for k, v := range selector {
		if podLabels[k] != v {
			t.Errorf("deployment selector %s=%s does not match the pod labels %v", k, v, podLabels)
		}
	}
	var pod podSpec
	decodeSpec(t, dep.Spec, []string{"template", "spec"}, &pod)
	if len(pod.Containers) != 1 {
		t.Fatalf("want one container, got %d", len(pod.Containers))
	}
	c := pod.Containers[0]
	if len(c.Args) == 0 || c.Args[0] != "serve" {
		t.Errorf("container args %v do not start with serve", c.Args)
	}
	checkFlags(t, "deployment", c.Args[1:], serveFlags)
	addr := c.Args[slices.Index(c.Args, "--addr")+1]
	if len(c.Ports) != 1 || !strings.HasSuffix(addr, ":"+strconv.Itoa(c.Ports[0].ContainerPort)) {
		t.Errorf("listen address %s and container ports %+v disagree", addr, c.Ports)
	}
	if c.ReadinessProbe.HTTPGet.Path != "/readyz" || c.ReadinessProbe.HTTPGet.Port != c.Ports[0].Name {
		t.Errorf("readiness probe %+v, want /readyz on port %s", c.ReadinessProbe.HTTPGet, c.Ports[0].Name)
	}
	var storeFromSecret bool
	for _, e := range c.Env {
		if e.Name == "IPATLAS_STORE" {
			ref := e.ValueFrom.SecretKeyRef
			storeFromSecret = ref.Name == secret.Metadata.Name && s.StringData[ref.Key] != ""
		}
	}
	if !storeFromSecret {
		t.Errorf("IPATLAS_STORE does not come from the %s Secret's keys %v", secret.Metadata.Name, s.StringData)
	}
	dataDir := c.Args[slices.Index(c.Args, "--data")+1]
	checkVolume(t, "deployment", pod, dataDir, pvc.Metadata.Name)

	svc := load(t, "service.yaml")
	var svcSpec struct {
		Selector map[string]string
		Ports    []struct {
			TargetPort string `yaml:"targetPort"`
		}
	}
	if err := svc.Spec.Decode(&svcSpec); err != nil {
		t.Fatal(err)
	}
	for k, v := range svcSpec.Selector {
		if podLabels[k] != v {
			t.Errorf("service selector %s=%s matches no pod label", k, v)
		}
	}
	if len(svcSpec.Ports) != 1 || svcSpec.Ports[0].TargetPort != c.Ports[0].Name {
		t.Errorf("service target ports %+v, want %s", svcSpec.Ports, c.Ports[0].Name)
	}

	cron := load(t, "cronjob-data-update.yaml")
	var job podSpec
	decodeSpec(t, cron.Spec, []string{"jobTemplate", "spec", "template", "spec"}, &job)
	checkVolume(t, "cronjob", job, "/data", pvc.Metadata.Name)
	// The cache outlives the job, so that the next run downloads only what changed.
	checkVolume(t, "cronjob", job, "/cache", load(t, "pvc-cache.yaml").Metadata.Name)
}

// checkVolume fails unless the pod mounts claim at dir.
func checkVolume(t *testing.T, where string, pod podSpec, dir, claim string) {
	t.Helper()
	for _, m := range pod.Containers[0].VolumeMounts {
		if m.MountPath != dir {
			continue
		}
		for _, v := range pod.Volumes {
			if v.Name == m.Name && v.PVC.ClaimName == claim {
				return
			}
		}
	}
	t.Errorf("%s: %s is not the %s claim", where, dir, claim)
}

// TestDockerfile: the image builds the static binary, runs it as a non-root user, with the
// Go version go.mod asks for, and every flag and IPATLAS_ variable it sets exists.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	df := string(b)
	if !strings.Contains(df, "FROM golang:"+string(goVersion[1])) {
		t.Errorf("the build stage does not use Go %s, which go.mod asks for", goVersion[1])
	}
	if !strings.Contains(df, "CGO_ENABLED=0 go build") {
		t.Error("the binary is not built with CGO_ENABLED=0")
	}
	bin := buildBinary(t)
	serveFlags, updateFlags := flagsOf(t, bin, "serve"), flagsOf(t, bin, "data", "update")
	stages := strings.Split(df, "\nFROM ")
	last := stages[len(stages)-1]
	for _, stage := range stages[1:] {
		if strings.Contains(strings.SplitN(stage, "\n", 2)[0], " AS build") {
			continue // builds as root; nothing of it runs
		}
		user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(stage)
		if user == nil || user[1] == "root" || strings.HasPrefix(user[1], "0") {
			t.Errorf("stage %q runs as root", strings.SplitN(stage, "\n", 2)[0])
		}
	}
	if !strings.Contains(last, `ENTRYPOINT ["/ipatlas"]`) || !strings.Contains(last, "COPY --from=build /out/ipatlas /ipatlas") {
		t.Error("the default (last) stage does not run the binary it copies")
	}
	for _, m := range regexp.MustCompile(`IPATLAS_([A-Z0-9_]+)=`).FindAllStringSubmatch(last, -1) {
		flag := strings.ToLower(strings.ReplaceAll(m[1], "_", "-"))
		if !slices.Contains(serveFlags, flag) {
			t.Errorf("ENV IPATLAS_%s names no serve flag", m[1])
		}
	}
	update := regexp.MustCompile(`ENTRYPOINT \["/usr/local/bin/ipatlas", "data", "update"(.*)\]`).FindStringSubmatch(df)
	if update == nil {
		t.Fatal("no update stage running `ipatlas data update`")
	}
	var args []string
	for _, a := range strings.Split(update[1], ",") {
		if a = strings.Trim(strings.TrimSpace(a), `"`); a != "" {
			args = append(args, a)
		}
	}
	checkFlags(t, "update stage", args, updateFlags)
}
