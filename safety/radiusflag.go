package safety

// Set reads a radius as ParseRadius does, so that a *Radius is a
// flag.Value (vigil safe --radius).
func (r *Radius) Set(s string) error {
	v, err := ParseRadius(s)
	if err != nil {
		return err
	}
	*r = v
	return nil
}
