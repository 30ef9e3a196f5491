import type { PhotoContentType, PhotoPhase, PhotoStatus } from '../photos';
import type { Versioned } from './common';

/** A clinical photo's metadata; the image itself is an object in storage under `object_key`. */
export interface PhotoRecord extends Versioned {
  id: string;
  medspa_id: string;
  client_id: string;
  appointment_id: string | null;
  phase: PhotoPhase;
  area: string | null;
  content_type: PhotoContentType;
  byte_size: number;
  status: PhotoStatus;
  object_key: string;
}
