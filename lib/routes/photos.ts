import { ALLOW } from '../auth/roles';
import { defineRoutes, list, route } from '../http/route';
import { Deleted, PageQuery } from '../schemas/common';
import * as p from '../schemas/photos';
import { ResourceParams } from '../schemas/resources';

/** Clinical photos (section 13): PHI, so reading and deleting are for the clinical roles (admin, manager, provider), and reads are audited. */
const READ = ALLOW.treatmentRecords;
/** The front desk may take the picture in (upload) but not look at it. */
const UPLOAD = ALLOW.clinical;

export const createPhoto = /* @__PURE__ */ route('createPhoto', () => ({
  method: 'POST',
  path: '/v1/clients/{id}/photos',
  group: 'photos',
  summary: 'Start a photo upload: answers a pre-signed PUT (15 minutes) for exactly the declared type and size',
  auth: UPLOAD,
  params: ResourceParams,
  body: p.CreatePhotoBody,
  response: p.CreatedPhoto,
  errors: ['CLIENT_NOT_FOUND', 'APPOINTMENT_NOT_FOUND'],
  writes: { clients: ['check'], photos: ['put'] },
  reads: ['appointments', 'clients'],
  touches: { photos: ['upload'] },
}));

export const listClientPhotos = /* @__PURE__ */ route('listClientPhotos', () => ({
  method: 'GET',
  path: '/v1/clients/{id}/photos',
  group: 'photos',
  summary: "A client's photos, newest first, each with a 5-minute download URL once ready (audited)",
  auth: READ,
  params: ResourceParams,
  query: PageQuery,
  response: list(p.Photo),
  errors: ['CLIENT_NOT_FOUND'],
  // Stores `ready` once it has seen an upload arrive.
  writes: { photos: ['update'] },
  reads: ['clientPhotos', 'clients'],
  touches: { photos: ['read'] },
  auditReads: true,
}));

export const getPhoto = /* @__PURE__ */ route('getPhoto', () => ({
  method: 'GET',
  path: '/v1/photos/{id}',
  group: 'photos',
  summary: 'A photo, with a 5-minute download URL once ready (audited)',
  auth: READ,
  params: p.PhotoParams,
  response: p.Photo,
  errors: ['PHOTO_NOT_FOUND'],
  writes: { photos: ['update'] },
  reads: ['photos'],
  touches: { photos: ['read'] },
  auditReads: true,
}));

export const deletePhoto = /* @__PURE__ */ route('deletePhoto', () => ({
  method: 'DELETE',
  path: '/v1/photos/{id}',
  group: 'photos',
  summary: 'Delete a photo and its image in storage',
  auth: READ,
  params: p.PhotoParams,
  response: Deleted,
  errors: ['PHOTO_NOT_FOUND'],
  writes: { photos: ['delete'] },
  reads: ['photos'],
  touches: { photos: ['delete'] },
}));

/** Clinical photos (API reference, clinical records). */
export const photoRoutes = /* @__PURE__ */ defineRoutes({ createPhoto, listClientPhotos, getPhoto, deletePhoto });
