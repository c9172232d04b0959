package app

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"switchyard/payments/errs"
	"switchyard/rest"
)

// Go's HTTP server answers some requests by itself, before any handler
// runs: a request line or URL it cannot parse (GET /payments/pay_% is an
// invalid %-escape), headers too large, a transfer encoding it does not
// know. It writes those answers as plain text straight to the connection,
// with no hook to change them. envelopeListener's connections recognise
// them as they are written and write the error envelope instead, with the
// same status, so a client sees the documented shape for every mistake.

// cannedHeaders ends the status line of every such answer (net/http's
// errorHeaders); no handler's answer has it, since ours are JSON with a
// Content-Length and a Date.
const cannedHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

type envelopeListener struct{ net.Listener }

func (l envelopeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &envelopeConn{Conn: c}, nil
}

type envelopeConn struct {
	net.Conn
	once sync.Once // the server writes a canned answer at most once, then closes
}

func (c *envelopeConn) Write(b []byte) (int, error) {
	status, text, ok := cannedAnswer(b)
	if !ok {
		return c.Conn.Write(b)
	}
	var err error
	c.once.Do(func() {
		body := rest.EnvelopeBody(errs.InvalidRequest("The request could not be read: %s", text))
		_, err = fmt.Fprintf(c.Conn, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
			status, http.StatusText(status), len(body), body)
	})
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// cannedAnswer reads one of the server's own plain-text answers: its status
// and what its body says.
func cannedAnswer(b []byte) (status int, text string, ok bool) {
	after, found := bytes.CutPrefix(b, []byte("HTTP/1.1 "))
	if !found || len(after) < 4 || after[3] != ' ' {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(after[:3]))
	if err != nil || status < 400 {
		return 0, "", false
	}
	i := bytes.Index(after, []byte(cannedHeaders))
	if i < 0 || bytes.IndexByte(after[:i], '\n') >= 0 {
		return 0, "", false
	}
	body := string(after[i+len(cannedHeaders):])
	switch {
	case status == http.StatusBadRequest && body == "400 Bad Request":
		text = "a malformed request line, URL (an invalid %-escape) or header"
	case status == http.StatusRequestHeaderFieldsTooLarge:
		text = "the request headers are too large"
	default:
		_, text, _ = strings.Cut(body, ": ")
		if text == "" {
			text = http.StatusText(status)
		}
	}
	return status, text, true
}
