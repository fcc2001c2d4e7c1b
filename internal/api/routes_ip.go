package api

// ipRoutes registers the IP endpoints: geolocation with confidence, network by IP and by
// CIDR, AS info with transit.
func (s *Server) ipRoutes() {}
