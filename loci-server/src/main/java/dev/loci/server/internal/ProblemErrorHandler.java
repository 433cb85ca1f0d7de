package dev.loci.server.internal;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's error pages, for the failures Jetty answers itself before a route runs (a request line it
 * cannot parse, headers too large): problem JSON like every other error, and never a stack.
 */
final class ProblemErrorHandler extends ErrorHandler {
  ProblemErrorHandler() {
    setShowStacks(false);
    setShowServlet(false);
  }

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    fields.put(HttpHeader.CONTENT_TYPE, Problems.CONTENT_TYPE);
    return ByteBuffer.wrap(
        Problems.json(Problems.fromJavalin(status)).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  protected void generateAcceptableResponse(
      Request baseRequest,
      HttpServletRequest request,
      HttpServletResponse response,
      int code,
      String message)
      throws IOException {
    baseRequest.setHandled(true);
    response.setContentType(Problems.CONTENT_TYPE);
    response
        .getOutputStream()
        .write(Problems.json(Problems.fromJavalin(code)).getBytes(StandardCharsets.UTF_8));
  }
}
