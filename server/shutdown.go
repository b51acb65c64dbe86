package server

// This file: Shutdown before Serve, or racing its start (Server.life): Serve
// then returns at once, and no listener is left open.

// isStopped says whether Shutdown has begun.
func (s *Server) isStopped() bool {
	s.life.mu.Lock()
	defer s.life.mu.Unlock()
	return s.life.stopped
}

// stopServing marks the server stopped, so that a Serve yet to start
// returns at once, and closes the listeners nothing will serve: every one
// when Serve never started; else the SSH listener, which Serve may not yet
// accept on (the SSH server's Shutdown closes only the listeners it
// accepts on; an Accept on the closed one returns, and Serve with it,
// returning nil since the server is stopped).
func (s *Server) stopServing() {
	s.life.mu.Lock()
	defer s.life.mu.Unlock()
	s.life.stopped = true
	if s.front.ln != nil {
		s.front.ln.Close()
	}
	if s.life.served {
		return
	}
	s.closeControl()
	if s.place.nodes.ln != nil {
		s.place.nodes.ln.Close()
	}
	if s.web.ln != nil {
		s.web.ln.Close()
	}
	if s.metrics.ln != nil {
		s.metrics.ln.Close()
	}
}
