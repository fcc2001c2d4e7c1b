package api

// placeRoutes registers user risk and the hazard report, phone validation, reverse
// geocoding and the keyless endpoints.
func (s *Server) placeRoutes() {}
