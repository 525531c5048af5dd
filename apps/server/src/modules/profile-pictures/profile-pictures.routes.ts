import {
  ZLangQuery,
  ZProfilePictureSetRequest,
  ZProfilePictureSetResponse,
  ZProfilePicturesResponse,
  ZProfilePictureUserRequest,
  ZProfilePictureUserResponse,
} from '@sorte/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok, responses } from '../../http/reply.ts';
import { memberOf } from '../../plugins/session-auth.ts';
import { getOwnProfileUrl, listProfilePictures, setOwnProfilePicture } from './profile-pictures.service.ts';

const tags = ['profile'];
const bearer = [{ bearerAuth: [] }];

export async function profilePicturesRoutes(app: FastifyInstance) {
  const { services } = app;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/profilepictures', {
    schema: {
      tags,
      summary: 'Profile photos to choose from, for males and females',
      querystring: ZLangQuery,
      response: responses(ZProfilePicturesResponse),
    },
    handler: async (request) => ok(request.lang, await listProfilePictures(services.db)),
  });

  r.post('/profilepictures/user', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "The caller's profile photo (member_id, when sent, must be the caller's own)",
      security: bearer,
      querystring: ZLangQuery,
      body: ZProfilePictureUserRequest,
      response: responses(ZProfilePictureUserResponse),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      const profileurl = await getOwnProfileUrl(
        services.db,
        request.site.id,
        memberId,
        request.body?.member_id,
      );
      return ok(request.lang, { profileurl });
    },
  });

  r.post('/profilepictures/set', {
    onRequest: app.requireMember,
    schema: {
      tags,
      summary: "Set the caller's profile photo",
      security: bearer,
      querystring: ZLangQuery,
      body: ZProfilePictureSetRequest,
      response: responses(ZProfilePictureSetResponse),
    },
    handler: async (request) => {
      const { memberId } = memberOf(request);
      const profileurl = await setOwnProfilePicture(
        services.db,
        request.site.id,
        memberId,
        request.body.picture_id,
      );
      return ok(request.lang, { profileurl }, 'messages.profile_picture_updated');
    },
  });
}
