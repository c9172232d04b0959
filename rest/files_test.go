package rest_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"
)

// upload sends a multipart form to path: fields as text parts, and a file
// part (name, its Content-Type, data) unless name is "".
func (c *client) upload(method, path, key string, fields map[string]string, name, partType string, data []byte) response {
	c.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		if err := mw.WriteField(k, v); err != nil {
			c.t.Fatal(err)
		}
	}
	if name != "" {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
		if partType != "" {
			h.Set("Content-Type", partType)
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			c.t.Fatal(err)
		}
		_, _ = w.Write(data)
	}
	if err := mw.Close(); err != nil {
		c.t.Fatal(err)
	}
	return c.doWith(method, path, key, body.Bytes(), map[string]string{"Content-Type": mw.FormDataContentType()})
}

// uploadFile uploads data as dispute evidence through POST /files and
// returns its file_id.
func uploadFile(t *testing.T, c *client, key, name, fileType string, data []byte) string {
	t.Helper()
	r := c.upload("POST", "/files", key, map[string]string{"purpose": "dispute_evidence", "file_type": fileType}, name, "", data).must(t, 200)
	id := r.str("file_id")
	if !strings.HasPrefix(id, "file_") {
		t.Fatalf("POST /files: %s", r.Raw)
	}
	return id
}

// getFile is GET /files/{id}: the status, the headers and the raw bytes.
func getFile(t *testing.T, c *client, key, id string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", c.srv.URL+"/files/"+id, nil)
	req.Header.Set("api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// TestFilesRoundTrip: a PDF uploaded through POST /files comes back byte
// for byte from GET /files/{id} with its type and name; DELETE removes it,
// after which both are HE_04; another merchant never sees it.
func TestFilesRoundTrip(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	data := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte{0, 1, 2, 0xff}, 40000)...) // 160 KB, binary
	id := uploadFile(t, c, key, "receipt.pdf", "application/pdf", data)

	status, h, got := getFile(t, c, key, id)
	if status != 200 || !bytes.Equal(got, data) || h.Get("Content-Type") != "application/pdf" ||
		!strings.Contains(h.Get("Content-Disposition"), `filename=receipt.pdf`) {
		t.Fatalf("GET /files: %d %v, %d bytes", status, h, len(got))
	}
	// The admin key acting for the merchant reads it too.
	req, _ := http.NewRequest("GET", c.srv.URL+"/files/"+id, nil)
	req.Header.Set("api-key", c.admin())
	req.Header.Set("X-Merchant-Id", c.srv.Demo.MerchantID)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("admin GET: %v %v", resp, err)
	}

	_, bKey, _ := otherMerchant(t, c, "merchant_files_b")
	for _, tc := range []struct{ name, method, key, id string }{
		{"another merchant's GET", "GET", bKey, id},
		{"another merchant's DELETE", "DELETE", bKey, id},
		{"unknown GET", "GET", key, "file_unknown"},
		{"unknown DELETE", "DELETE", key, "file_unknown"},
	} {
		r := c.do(tc.method, "/files/"+tc.id, tc.key, nil)
		if r.Status != 404 || r.errCode() != "HE_04" || r.str("error", "message") != "File does not exist in our records" {
			t.Fatalf("%s: %d %s", tc.name, r.Status, r.Raw)
		}
	}

	c.do("DELETE", "/files/"+id, key, nil).must(t, 200)
	if r := c.do("DELETE", "/files/"+id, key, nil); r.Status != 404 || r.errCode() != "HE_04" {
		t.Fatalf("DELETE twice: %d %s", r.Status, r.Raw)
	}
	if status, _, body := getFile(t, c, key, id); status != 404 || !strings.Contains(string(body), "HE_04") {
		t.Fatalf("GET after DELETE: %d %s", status, body)
	}
	if r := c.do("GET", "/files/"+id, "", nil); r.Status != 401 || r.errCode() != "IR_01" {
		t.Fatalf("no key: %d %s", r.Status, r.Raw)
	}
}

// TestFileUploadRefusals: each upload rule answers Hyperswitch's code.
func TestFileUploadRefusals(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	pdf := []byte("%PDF-1.4 small")
	evidence := map[string]string{"purpose": "dispute_evidence", "file_type": "application/pdf"}
	for _, tc := range []struct {
		name     string
		fields   map[string]string
		file     string
		partType string
		data     []byte
		status   int
		code     string
		message  string
	}{
		{"no file part", evidence, "", "", nil, 400, "IR_33", "File not found in the request"},
		{"no purpose", map[string]string{"file_type": "application/pdf"}, "a.pdf", "", pdf, 400, "IR_35", "File purpose"},
		{"unknown purpose", map[string]string{"purpose": "avatar", "file_type": "application/pdf"}, "a.pdf", "", pdf, 400, "IR_35", "File purpose"},
		{"no file type", map[string]string{"purpose": "dispute_evidence"}, "a.pdf", "", pdf, 400, "IR_36", "File content type not found"},
		{"malformed file type", map[string]string{"purpose": "dispute_evidence", "file_type": "pdf/"}, "a.pdf", "", pdf, 400, "IR_07", "file_type"},
		{"type not accepted", map[string]string{"purpose": "dispute_evidence", "file_type": "application/x-msdownload"}, "a.exe", "", pdf, 400, "HE_03", "File validation failed"},
		{"empty file", evidence, "a.pdf", "", []byte{}, 400, "HE_03", "empty"},
		{"over the size limit", evidence, "big.pdf", "", bytes.Repeat([]byte("x"), 5<<20+1), 400, "HE_03", "file_size exceeded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.upload("POST", "/files", key, tc.fields, tc.file, tc.partType, tc.data)
			if r.Status != tc.status || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.message) {
				t.Fatalf("%d %s, want %d %s with %q", r.Status, r.Raw, tc.status, tc.code, tc.message)
			}
		})
	}
	// The part's own Content-Type stands in for a missing file_type.
	r := c.upload("POST", "/files", key, map[string]string{"purpose": "dispute_evidence"}, "shot.png", "image/png", []byte("\x89PNG...")).must(t, 200)
	if status, h, _ := getFile(t, c, key, r.str("file_id")); status != 200 || h.Get("Content-Type") != "image/png" {
		t.Fatalf("part type: %d %v", status, h)
	}
	if r := c.do("POST", "/files", key, `{"purpose":"dispute_evidence"}`); r.Status != 400 || r.errCode() != "IR_33" {
		t.Fatalf("JSON body: %d %s", r.Status, r.Raw)
	}
}
