package dev.loci.server.spi;

import dev.loci.LegalCapability;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.server.Role;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One request to a {@link Route} that passed the route's checks, and its response. Not thread-safe;
 * valid only while the handler runs.
 */
public interface Exchange {
  /**
   * The namespace of the {@code {ns}} path parameter, already checked against the credential.
   *
   * @throws IllegalStateException if the route declares {@link Route.NamespaceAccess#NONE}
   */
  Namespace namespace();

  /**
   * The namespaces the request reads: {@link #namespace()}, and with {@code subtree=true} on a
   * {@link Route.NamespaceAccess#PATH_OR_SUBTREE} route every namespace below it; already checked
   * against the credential.
   *
   * @throws IllegalStateException if the route declares {@link Route.NamespaceAccess#NONE}
   */
  NamespaceScope scope();

  /** A path parameter of the route's template. */
  String pathParam(String name);

  /** The first value of a query parameter, if given. */
  Optional<String> query(String name);

  /** The names of the query parameters given. */
  Set<String> queryNames();

  /** Every value of a query parameter, in order; empty if not given. */
  List<String> queries(String name);

  /** A request header, if present. */
  Optional<String> header(String name);

  /**
   * The request body as a JSON object, read within the route's body cap.
   *
   * @throws HttpProblem 400 if it is not one JSON object, 413 if over the cap
   * @throws IllegalStateException if the route does not take a body
   */
  JsonBody body();

  /**
   * The request body as a stream of bytes, for a route that reads a large body itself (an import)
   * instead of through {@link #body()}. Reading past the route's body cap throws {@link
   * HttpProblem} 413, so nothing more than the cap is ever read. Call one of this and {@link
   * #body()}, once.
   *
   * @throws IllegalStateException if the route does not take a body
   */
  InputStream bodyStream();

  /** Who the journal records as the author of writes: {@code token:<id>}, or {@code http}. */
  String actor();

  /**
   * The id of the credential the request presented (safe to log and record), or empty when the
   * server has no credential configured and serves the local user.
   */
  Optional<String> tokenId();

  /**
   * The legal-tier capability of this request, held by the presenting credential's id, for reads of
   * superseded versions ({@code include_history}, version chains, history).
   *
   * @throws HttpProblem 403 naming {@code field} unless the credential has the {@code legal} role;
   *     never granted to the local user of a server without credentials
   */
  LegalCapability legal(String field);

  /**
   * Whether the caller may do what {@code role} may: a credential's role satisfies it, or, on a
   * server without credentials, the local user (who has every role but {@code legal}). For a route
   * whose body decides how much authority it needs (a write asking to be trusted at once).
   */
  boolean allows(Role role);

  /**
   * Returns true if the credential may read every namespace of {@code scope} (always true on a
   * server with no credential configured).
   */
  boolean reads(NamespaceScope scope);

  /** Sets a response header. */
  void responseHeader(String name, String value);

  /** Responds with {@code status} and {@code json} as {@code application/json}. */
  void json(int status, String json);

  /** Responds with {@code status} and {@code body} of the given content type. */
  void respond(int status, String contentType, String body);
}
