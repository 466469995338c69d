import {
  CHAT_LIST_CAP,
  CHAT_PAGE_MAX,
  ChatQuery,
  CONVERSATIONS_CAP,
  CONVERSATIONS_PAGE_MAX,
  Conversation,
  ConversationListQuery,
  IdParams,
  InterestIdParams,
  InterestResponse,
  LISTING_PHOTOS_MAX,
  Listing,
  ListingCreateBody,
  ListingEditBody,
  ListingFilters,
  ListingIdParams,
  MARKET_LIST_CAP,
  MARKET_PAGE_MAX,
  MarketChatBody,
  MarketChatMessage,
  OwnedVehicle,
  PHOTO_MAX_BYTES,
} from '@evdra/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { etagMatches } from '../../lib/etag.js';
import {
  jsonPartOf,
  multipartRoute,
  readMultipart,
  uploadErrors,
  withMultipart,
} from '../../lib/multipart.js';
import { sendPage, setNextPage } from '../../lib/next-page.js';
import { sendJsonText } from '../../lib/serializer.js';
import { parseOr400 } from '../../lib/validation.js';
import { principalOf } from '../../plugins/auth.js';
import type { VehicleListCache } from '../vehicles/vehicle-list-cache.js';
import type { MarketplaceService } from './marketplace.service.js';

const errors = uploadErrors;
const multipart = multipartRoute;
const tags = ['marketplace'];
/** A listing's multipart body: its JSON part `data` and its photos (one past the limit still parses: the service answers that 400). */
const listingParts = (fileField: string) => ({
  fileField,
  maxFileBytes: PHOTO_MAX_BYTES,
  maxFiles: LISTING_PHOTOS_MAX + 1,
  jsonPart: 'data',
});

export async function marketplaceRoutes(
  app: FastifyInstance,
  { service, lists }: { service: MarketplaceService; lists: VehicleListCache },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const user = { preHandler: app.requireUser };

  r.get(
    '/api/marketplace/listings',
    {
      ...user,
      schema: {
        tags,
        description:
          'Active listings, newest first (`sort=rating`: the lowest price against its spec §9 estimate first, those without a rating last), with the vehicle’s current values, `priceRating` (spec §9 with its factors) and `history`. ' +
          'Optional filters: make and model contain the text (any case); fuelType contains it (either fuel, code or common name); year contains the digits; km ≤ maxOdometer; ' +
          'priceMin/priceMax in `currency` (default EUR), compared with the price in euros at the latest rate. ' +
          `At most ${MARKET_LIST_CAP} listings without \`limit\` (today’s markets whole); \`limit\` (1-${MARKET_PAGE_MAX}) asks for a page. ` +
          'When more follow, the X-Next-Cursor header holds the `cursor` of the next page and Link its URL (rel="next"); no such header: the last page.',
        querystring: ListingFilters,
        response: { 200: z.array(Listing), ...errors },
      },
    },
    async (req, reply) => {
      // Built and typed as Listing[] by the service and sent as bytes, kept while the market's
      // stamp is the same (see listingsJson); the schema above documents the answer.
      const page = await service.listingsJson(req.query);
      return sendPage(reply, req.url, page);
    },
  );

  r.get(
    '/api/marketplace/listings/:id',
    {
      ...user,
      schema: {
        tags,
        description:
          'One listing as the list shows it: an active one for any user; a sold or deactivated one only for its seller or an admin (404 for anyone else).',
        params: IdParams,
        response: { 200: Listing, ...errors },
      },
    },
    async (req) => service.listing(principalOf(req), req.params.id),
  );

  r.get(
    '/api/marketplace/my-vehicles',
    {
      ...user,
      schema: {
        tags,
        description: 'The caller’s vehicles without an active listing.',
        response: { 200: z.array(OwnedVehicle), ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      // Kept with the vehicle lists, which any car's change empties, under the market's stamp: a
      // listing made or ended moves a car in or out (a fleet's 200 were written on every read, issue 54).
      const key = `unlisted:${p.userId}:${await service.marketStamp()}`;
      const kept = await lists.getOrLoad(key, async () => ({
        json: Buffer.from(await service.myVehiclesJson(p)),
        next: '',
      }));
      return sendJsonText(reply, kept.json);
    },
  );

  r.post(
    '/api/marketplace/list',
    {
      ...user,
      schema: {
        tags,
        description: 'Lists one of the caller’s vehicles (409 when it already has an active listing).',
        body: ListingCreateBody,
        response: { 201: Listing, ...errors },
      },
    },
    async (req, reply) => reply.status(201).send(await service.create(principalOf(req), req.body)),
  );

  r.patch(
    '/api/marketplace/edit/:id',
    {
      ...user,
      schema: {
        tags,
        description: 'Seller or admin: new price and description (and photos to remove).',
        params: IdParams,
        body: ListingEditBody,
        response: { 200: Listing, ...errors },
      },
    },
    async (req) => service.edit(principalOf(req), req.params.id, req.body),
  );

  r.delete(
    '/api/marketplace/delete-permanent/:id',
    {
      ...user,
      schema: {
        tags,
        description: 'Seller or admin: deletes the listing with its photos, interests and conversations.',
        params: IdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.delete(principalOf(req), req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/marketplace/photos/:fileId',
    {
      ...user,
      schema: {
        tags,
        description:
          'A listing photo: any logged-in user sees an active listing’s; a sold or deactivated listing’s only its seller (or an admin), 404 for anyone else.',
        params: z.object({ fileId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) }),
      },
    },
    async (req, reply) => {
      // As /api/files/:id: ids are never reused, so the id is the ETag and the photo may be kept.
      const etag = `"${req.params.fileId}"`;
      reply.header('cache-control', 'private, max-age=31536000, immutable').header('etag', etag);
      if (etagMatches(req.headers['if-none-match'], etag)) {
        await service.photoType(principalOf(req), req.params.fileId);
        return reply.status(304).send();
      }
      const { file, contentType } = await service.photo(principalOf(req), req.params.fileId);
      return reply.type(contentType).header('content-length', file.size).send(file.body);
    },
  );

  r.post(
    '/api/marketplace/interest/:listingId',
    {
      ...user,
      schema: {
        tags,
        description:
          'Opens (or returns) the caller’s conversation about a listing and notifies the seller. 409 on one’s own listing.',
        params: ListingIdParams,
        response: { 200: InterestResponse, ...errors },
      },
    },
    async (req) => service.interest(principalOf(req), req.params.listingId),
  );

  r.get(
    '/api/marketplace/conversations',
    {
      ...user,
      schema: {
        tags,
        description:
          'The caller’s conversations, most recent first, with unread counts. ' +
          `At most ${CONVERSATIONS_CAP} without \`limit\`; \`limit\` (1-${CONVERSATIONS_PAGE_MAX}) asks for a page. ` +
          'When more follow, the X-Next-Cursor header holds the `cursor` of the next page and Link its URL (rel="next"); no such header: the last page.',
        querystring: ConversationListQuery,
        response: { 200: z.array(Conversation), ...errors },
      },
    },
    async (req, reply) => {
      const page = await service.conversations(principalOf(req), req.query);
      if (page.next) setNextPage(reply, req.url, page.next);
      return page.items;
    },
  );

  r.delete(
    '/api/marketplace/conversations/:interestId',
    {
      ...user,
      schema: {
        tags,
        description: 'Removes the conversation for the caller (it comes back if a new message arrives).',
        params: InterestIdParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (req, reply) => {
      await service.deleteConversation(principalOf(req), req.params.interestId);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/marketplace/chat/:interestId',
    {
      ...user,
      schema: {
        tags,
        description:
          'Messages oldest first (only for the two parties). `after` = last id seen returns only newer ones: the web polls this while a conversation is open. ' +
          `At most ${CHAT_LIST_CAP} messages without \`limit\`; \`limit\` (1-${CHAT_PAGE_MAX}) asks for a page. ` +
          'When more follow, the X-Next-Cursor header holds the `cursor` of the next page and Link its URL (rel="next"); no such header: the last page. ' +
          `Backwards, as the web opens a chat: \`last\` (1-${CHAT_PAGE_MAX}) asks for the newest messages, \`before\` for those before a message (still oldest first); ` +
          'when earlier ones exist, X-Prev-Cursor holds the `before` of the earlier page and Link its URL (rel="prev"). The two ways do not mix (400).',
        params: InterestIdParams,
        querystring: ChatQuery,
        response: { 200: z.array(MarketChatMessage), ...errors },
      },
    },
    async (req, reply) => {
      const page = await service.chatJson(principalOf(req), req.params.interestId, req.query);
      return sendPage(reply, req.url, page);
    },
  );

  r.post(
    '/api/marketplace/chat/:interestId',
    {
      ...user,
      schema: {
        tags,
        description: `Sends a message (not blank, ≤ 2000 characters); answers the conversation as GET with the same query does (without one its first ${CHAT_LIST_CAP} messages, as GET without \`limit\`; \`after\` = the last id seen: only the newer ones, the sent one among them).`,
        params: InterestIdParams,
        querystring: ChatQuery,
        body: MarketChatBody,
        response: { 200: z.array(MarketChatMessage), ...errors },
      },
    },
    async (req, reply) =>
      sendPage(
        reply,
        req.url,
        await service.send(principalOf(req), req.params.interestId, req.body.message, req.query),
      ),
  );

  r.patch(
    '/api/marketplace/transfer/:interestId',
    {
      ...user,
      schema: {
        tags,
        description:
          'Seller only (403 for the buyer): in one transaction the buyer becomes the owner and the listing is deactivated. A retry is harmless.',
        params: InterestIdParams,
        response: { 200: InterestResponse, ...errors },
      },
    },
    async (req) => service.transfer(principalOf(req), req.params.interestId),
  );

  await withMultipart(app, (scope) => {
    const u = scope.withTypeProvider<ZodTypeProvider>();
    u.post(
      '/api/marketplace/list-with-photos',
      {
        ...user,
        schema: {
          tags,
          ...multipart,
          description: `Multipart: part \`data\` = {vehicleId, price, description} (a text field, or a file part of type application/json), up to ${LISTING_PHOTOS_MAX} file parts \`photos\` (JPEG, PNG or WebP by content, ≤ 10 MB each; re-encoded, EXIF stripped).`,
          response: { 201: Listing, ...errors },
        },
      },
      async (req, reply) => {
        const { fields, files } = await readMultipart(req, listingParts('photos'));
        const body = parseOr400(ListingCreateBody, jsonPartOf(fields));
        return reply.status(201).send(await service.create(principalOf(req), body, files));
      },
    );

    u.patch(
      '/api/marketplace/edit-with-photos/:id',
      {
        ...user,
        schema: {
          tags,
          ...multipart,
          description:
            'Seller or admin. Multipart: part `data` = {price, description, removePhotoUrls} (a text field or an application/json file part), file parts `newPhotos`.',
          params: IdParams,
          response: { 200: Listing, ...errors },
        },
      },
      async (req) => {
        const { fields, files } = await readMultipart(req, listingParts('newPhotos'));
        const body = parseOr400(ListingEditBody, jsonPartOf(fields));
        return service.edit(principalOf(req), req.params.id, body, files);
      },
    );
  });
}
