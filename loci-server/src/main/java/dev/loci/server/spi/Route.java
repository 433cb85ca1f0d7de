package dev.loci.server.spi;

import dev.loci.server.Role;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP route: method, path template, what it requires, and its handler.
 *
 * <p>The server enforces the declaration before the handler runs, in this order: client address
 * allowlist, credential (401), rate limit (429), role (403), namespace (403; decided from the path
 * alone, so a refusal never reveals whether a record exists), content type (415) and body cap (413)
 * for routes that take a body.
 *
 * @param method the HTTP method
 * @param path the path template in Javalin syntax, e.g. {@code /v1/ns/{ns}/traces/{uid}}
 * @param role the role required, or empty for an open route (no credential, no allowlist)
 * @param namespaces how the route names the namespaces it touches
 * @param takesBody whether the route reads a JSON request body
 * @param handler the code that serves it
 */
public record Route(
    Method method,
    String path,
    Optional<Role> role,
    NamespaceAccess namespaces,
    boolean takesBody,
    Handler handler) {

  /** The HTTP methods routes use. */
  public enum Method {
    /** Reads. */
    GET,
    /** Creates or acts. */
    POST,
    /** Creates or replaces at a known path. */
    PUT,
    /** Changes in place. */
    PATCH,
    /** Removes. */
    DELETE
  }

  /** How a route names the namespaces it reads or writes. */
  public enum NamespaceAccess {
    /** The route touches no namespace, such as {@code /metrics}. */
    NONE,
    /** Exactly the namespace of the {@code {ns}} path parameter. */
    PATH,
    /**
     * The namespace of the {@code {ns}} path parameter, and with the query parameter {@code
     * subtree=true} every namespace below it too.
     */
    PATH_OR_SUBTREE
  }

  /** Serves one request that passed the route's checks. */
  @FunctionalInterface
  public interface Handler {
    /**
     * Serves the request. Throw {@link dev.loci.LociException}s and {@link HttpProblem}s for
     * failures: the server turns them into problem responses.
     */
    void handle(Exchange exchange) throws Exception;
  }

  /** Checks the declaration is consistent. */
  public Route {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(namespaces, "namespaces");
    Objects.requireNonNull(handler, "handler");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("path must start with '/', found '" + path + "'");
    }
    if ((namespaces != NamespaceAccess.NONE) != path.contains("{ns}")) {
      throw new IllegalArgumentException(
          path + ": a route has a {ns} path parameter exactly when it touches namespaces");
    }
    if (role.isEmpty() && namespaces != NamespaceAccess.NONE) {
      throw new IllegalArgumentException(path + ": an open route cannot touch namespaces");
    }
  }

  /** A route that requires {@code role}. */
  public static Route of(
      Method method,
      String path,
      Role role,
      NamespaceAccess namespaces,
      boolean takesBody,
      Handler handler) {
    return new Route(method, path, Optional.of(role), namespaces, takesBody, handler);
  }

  /** A route anyone may call: no credential, no allowlist. */
  public static Route open(Method method, String path, Handler handler) {
    return new Route(method, path, Optional.empty(), NamespaceAccess.NONE, false, handler);
  }
}
