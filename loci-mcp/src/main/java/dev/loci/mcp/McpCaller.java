package dev.loci.mcp;

import dev.loci.LegalCapability;
import dev.loci.NamespaceScope;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import java.util.Objects;
import java.util.Optional;

/**
 * Who calls a tool, and what they may do: the same roles and namespace grants as the HTTP API. Over
 * HTTP it is the credential the request presented; over stdio it is the local user, who may do
 * everything but what only a {@code legal} credential may (as on a server with no credential).
 * Implementations are immutable.
 */
public interface McpCaller {
  /** Whether the caller may do what {@code role} may. */
  boolean allows(Role role);

  /** Whether every namespace of {@code scope} lies within the caller's grant. */
  boolean covers(NamespaceScope scope);

  /**
   * The legal-tier capability, if the caller holds the {@code legal} role; {@code field} is the
   * argument that asked for it.
   */
  Optional<LegalCapability> legal(String field);

  /** Who the journal records as the author of writes. */
  String actor();

  /**
   * Who decides when the caller acts as a reviewer (promote, reject, invalidate), for the record:
   * the token id, or {@code local} for the local user, as over the HTTP API.
   */
  String holder();

  /** The local user of {@code loci mcp} over stdio, writing as {@code actor}. */
  static McpCaller local(String actor) {
    Objects.requireNonNull(actor, "actor");
    return new McpCaller() {
      @Override
      public boolean allows(Role role) {
        return role != Role.LEGAL;
      }

      @Override
      public boolean covers(NamespaceScope scope) {
        return true;
      }

      @Override
      public Optional<LegalCapability> legal(String field) {
        return Optional.empty();
      }

      @Override
      public String actor() {
        return actor;
      }

      @Override
      public String holder() {
        return "local";
      }
    };
  }

  /**
   * The caller of an HTTP request that passed the server's checks. Valid while the request's
   * handler runs.
   */
  static McpCaller of(Exchange exchange) {
    Objects.requireNonNull(exchange, "exchange");
    return new McpCaller() {
      @Override
      public boolean allows(Role role) {
        return exchange.allows(role);
      }

      @Override
      public boolean covers(NamespaceScope scope) {
        return exchange.reads(scope);
      }

      @Override
      public Optional<LegalCapability> legal(String field) {
        return exchange.allows(Role.LEGAL) ? Optional.of(exchange.legal(field)) : Optional.empty();
      }

      @Override
      public String actor() {
        return exchange.actor();
      }

      @Override
      public String holder() {
        return exchange.tokenId().orElse("local");
      }
    };
  }
}
