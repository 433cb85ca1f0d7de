package dev.loci.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A client that writes HTTP/1.1 bytes as given, for the framing a well-behaved client never sends:
 * short bodies, broken chunks, half-closed connections, one byte at a time.
 */
final class RawHttp implements AutoCloseable {
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;

  /** A connection to the server on {@code port}; a read waits at most {@code readTimeoutMs}. */
  RawHttp(int port, int readTimeoutMs) {
    try {
      socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(readTimeoutMs);
      out = socket.getOutputStream();
      in = socket.getInputStream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The head of a JSON POST to {@code path} with {@code headers} (each ending in CRLF). */
  static String post(String path, String headers) {
    return "POST "
        + path
        + " HTTP/1.1\r\nHost: loci\r\nContent-Type: application/json\r\n"
        + headers
        + "\r\n";
  }

  /** Sends {@code text} as UTF-8. */
  RawHttp send(String text) {
    try {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes the sending half: the server reads end of stream. */
  RawHttp halfClose() {
    try {
      socket.shutdownOutput();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether the server has answered yet, read without waiting more than {@code waitMs}; the answer
   * is kept for {@link #response}.
   */
  boolean answered(int waitMs) {
    try {
      socket.setSoTimeout(waitMs);
      int b = in.read();
      if (b >= 0) {
        first = b;
      }
      return b >= 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset by the server: it gave up on this request
    }
  }

  private int first = -1;

  /** Everything the server sends until it closes or the read timeout passes. */
  String response() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    if (first >= 0) {
      b.write(first);
    }
    byte[] buf = new byte[8192];
    try {
      socket.setSoTimeout(30_000);
      int n;
      while ((n = in.read(buf)) > 0) {
        b.write(buf, 0, n);
        if (complete(b.toString(StandardCharsets.UTF_8))) {
          break;
        }
      }
    } catch (IOException e) {
      // the server closed or reset after answering: what arrived is the answer
    }
    return b.toString(StandardCharsets.UTF_8);
  }

  /** The status code of {@link #response}, 0 if nothing came. */
  static int status(String response) {
    return response.startsWith("HTTP/1.1 ") ? Integer.parseInt(response.substring(9, 12)) : 0;
  }

  private static boolean complete(String r) {
    int head = r.indexOf("\r\n\r\n");
    int at = r.toLowerCase(java.util.Locale.ROOT).indexOf("content-length: ");
    if (head < 0 || at < 0 || at > head) {
      return false;
    }
    int end = r.indexOf("\r\n", at);
    int length = Integer.parseInt(r.substring(at + 16, end).strip());
    return r.getBytes(StandardCharsets.UTF_8).length >= head + 4 + length;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing a test socket
    }
  }
}
