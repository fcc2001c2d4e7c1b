package web

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics holds the HTTP request metrics. Register it once per registry.
type Metrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec

	mu     sync.Mutex
	routes map[string]*routeMetrics
}

// NewMetrics creates and registers the request metrics on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ipatlas_http_requests_total",
			Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ipatlas_http_request_duration_seconds",
			Help:    "Time to answer HTTP requests, by route.",
			Buckets: []float64{.00005, .0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}, []string{"route"}),
		routes: map[string]*routeMetrics{},
	}
	reg.MustRegister(m.requests, m.latency)
	return m
}

// routeMetrics caches the per-route children so the hot path does no label hashing for the
// common status codes.
type routeMetrics struct {
	route   string
	parent  *prometheus.CounterVec
	latency prometheus.Observer
	byCode  sync.Map // int -> prometheus.Counter
}

func (m *Metrics) route(name string) *routeMetrics {
	m.mu.Lock()
	defer m.mu.Unlock()
	if rm, ok := m.routes[name]; ok {
		return rm
	}
	rm := &routeMetrics{route: name, parent: m.requests, latency: m.latency.WithLabelValues(name)}
	for _, code := range []int{http.StatusOK, 400, 401, 402, 403, 404, 405, 429, 500} {
		rm.byCode.Store(code, m.requests.WithLabelValues(name, strconv.Itoa(code)))
	}
	m.routes[name] = rm
	return rm
}

func (rm *routeMetrics) observe(code int, d time.Duration) {
	rm.latency.Observe(d.Seconds())
	if c, ok := rm.byCode.Load(code); ok {
		c.(prometheus.Counter).Inc()
		return
	}
	c := rm.parent.WithLabelValues(rm.route, strconv.Itoa(code))
	rm.byCode.Store(code, c)
	c.Inc()
}
