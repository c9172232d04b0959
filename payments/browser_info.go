package payments

import "encoding/json"

// BrowserInfo is Hyperswitch's BrowserInformation (a closed object), the
// one typed form both front doors decode a payment's browser_info into.
// The number types are Hyperswitch's (u8, u32, i32), so a value it refuses
// is refused here and no other.
type BrowserInfo struct {
	ColorDepth        *uint8  `json:"color_depth"`
	JavaEnabled       *bool   `json:"java_enabled"`
	JavaScriptEnabled *bool   `json:"java_script_enabled"`
	Language          *string `json:"language"`
	ScreenHeight      *uint32 `json:"screen_height"`
	ScreenWidth       *uint32 `json:"screen_width"`
	TimeZone          *int32  `json:"time_zone"`
	IPAddress         *string `json:"ip_address"`
	AcceptHeader      *string `json:"accept_header"`
	UserAgent         *string `json:"user_agent"`
	OSType            *string `json:"os_type"`
	OSVersion         *string `json:"os_version"`
	DeviceModel       *string `json:"device_model"`
	AcceptLanguage    *string `json:"accept_language"`
	Referer           *string `json:"referer"`
}

// Members is the stored form: the members given, by their wire names.
func (b *BrowserInfo) Members() map[string]any {
	if b == nil {
		return nil
	}
	out := map[string]any{}
	put(out, "color_depth", b.ColorDepth)
	put(out, "java_enabled", b.JavaEnabled)
	put(out, "java_script_enabled", b.JavaScriptEnabled)
	put(out, "language", b.Language)
	put(out, "screen_height", b.ScreenHeight)
	put(out, "screen_width", b.ScreenWidth)
	put(out, "time_zone", b.TimeZone)
	put(out, "ip_address", b.IPAddress)
	put(out, "accept_header", b.AcceptHeader)
	put(out, "user_agent", b.UserAgent)
	put(out, "os_type", b.OSType)
	put(out, "os_version", b.OSVersion)
	put(out, "device_model", b.DeviceModel)
	put(out, "accept_language", b.AcceptLanguage)
	put(out, "referer", b.Referer)
	return out
}

func put[T any](m map[string]any, name string, v *T) {
	if v != nil {
		m[name] = *v
	}
}

// BrowserInfoOf reads the stored form back, for an answer that shows it;
// a stored member of another type is left out (encoding/json skips it and
// goes on).
func BrowserInfoOf(m map[string]any) *BrowserInfo {
	if len(m) == 0 {
		return nil
	}
	var b BrowserInfo
	raw, err := json.Marshal(m)
	if err == nil {
		_ = json.Unmarshal(raw, &b)
	}
	return &b
}
