package dev.brain.solr;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;

/**
 * Every write brain sends to its collection, each retried before it is given up: a node restarting
 * or a leader changing fails a batch for a moment, not for good. A batch given up on is thrown as
 * {@link BatchFailed} with what was tried; the caller reports it, so nothing is lost unseen.
 */
final class SolrWrites {

  /** Attempts per batch, and the pause before the second (doubled each time). */
  static final int ATTEMPTS = 3;

  private static final long FIRST_PAUSE_MILLIS = 500;

  /** A batch that failed every attempt. */
  static final class BatchFailed extends IOException {
    private static final long serialVersionUID = 1L;

    BatchFailed(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final CloudSolrClient client;
  private final String collection;

  SolrWrites(CloudSolrClient client, String collection) {
    this.client = client;
    this.collection = collection;
  }

  /** Adds (or replaces, by id) documents. */
  void add(Collection<SolrInputDocument> docs) throws BatchFailed {
    if (docs.isEmpty()) {
      return;
    }
    var request = new UpdateRequest();
    request.add(docs);
    send(request, "adding " + docs.size() + " documents");
  }

  /** Deletes documents matching a query. */
  void deleteByQuery(String query) throws BatchFailed {
    var request = new UpdateRequest();
    request.deleteByQuery(query);
    send(request, "deleting " + query);
  }

  /** Deletes documents by id. */
  void deleteById(List<String> ids) throws BatchFailed {
    if (ids.isEmpty()) {
      return;
    }
    var request = new UpdateRequest();
    request.deleteById(ids);
    send(request, "deleting " + ids.size() + " documents");
  }

  /** A hard commit that opens a new searcher: what was written becomes searchable. */
  void commit() throws BatchFailed {
    var request = new UpdateRequest();
    request.setAction(UpdateRequest.ACTION.COMMIT, true, true);
    send(request, "committing");
  }

  private void send(UpdateRequest request, String what) throws BatchFailed {
    long pause = FIRST_PAUSE_MILLIS;
    Exception last = null;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        request.process(client, collection);
        return;
      } catch (IOException | SolrServerException | SolrException e) {
        last = e;
      }
      if (attempt < ATTEMPTS) {
        sleep(pause);
        pause *= 2;
      }
    }
    throw new BatchFailed(
        what
            + " in Solr collection '"
            + collection
            + "' failed "
            + ATTEMPTS
            + " times: "
            + SolrCollections.rootMessage(last),
        last);
  }

  private static void sleep(long millis) throws BatchFailed {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new BatchFailed("interrupted while retrying a Solr write", e);
    }
  }
}
