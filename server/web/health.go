package web

// This file: the health endpoints, on the web pages' address and (through
// the server) the metrics address, for a balancer or an orchestrator.

import (
	"net/http"
)

// HealthRoutes adds the two health endpoints to mux:
//
//	GET /healthz   200 "ok" while the process serves requests at all
//	GET /readyz    200 "ready" when ready returns nil: this node should be
//	               sent new players; else 503 and the error's text, one line
//
// A balancer takes a node out of rotation on /readyz (a node that is
// draining for a shutdown, or that cannot reach its database, answers
// 503) and restarts it, if it restarts anything, on /healthz. nil ready
// means always ready. Neither answer is cached.
func HealthRoutes(mux *http.ServeMux, ready func() error) {
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if probed(w, r) {
			health(w, http.StatusOK, "ok")
		}
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if !probed(w, r) {
			return
		}
		if ready != nil {
			if err := ready(); err != nil {
				health(w, http.StatusServiceUnavailable, "not ready: "+err.Error())
				return
			}
		}
		health(w, http.StatusOK, "ready")
	})
}

// probed reports whether r is a probe (GET or HEAD); anything else is
// answered 405 with the methods allowed.
func probed(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	health(w, http.StatusMethodNotAllowed, "a probe is GET or HEAD")
	return false
}

// health writes a probe's one-line plain-text answer.
func health(w http.ResponseWriter, code int, line string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(line + "\n"))
}
