package server

// This file: Shutdown before Serve, or racing its start (startMu): Serve
// then returns at once, and no listener is left open.

// isStopped says whether Shutdown has begun.
func (s *Server) isStopped() bool {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	return s.stopped
}

// stopServing marks the server stopped, so that a Serve yet to start
// returns at once, and closes the listeners nothing will serve: every one
// when Serve never started; else the SSH listener, which Serve may not yet
// accept on (the SSH server's Shutdown closes only the listeners it
// accepts on; an Accept on the closed one returns, and Serve with it,
// returning nil since the server is stopped).
func (s *Server) stopServing() {
	s.startMu.Lock()
	defer s.startMu.Unlock()
	s.stopped = true
	if s.ln != nil {
		s.ln.Close()
	}
	if s.served {
		return
	}
	if s.nodes != nil && s.nodes.ln != nil {
		s.nodes.ln.Close()
	}
	if s.webLn != nil {
		s.webLn.Close()
	}
	if s.metricsLn != nil {
		s.metricsLn.Close()
	}
}
