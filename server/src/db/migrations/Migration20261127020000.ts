import { Migration } from '@mikro-orm/migrations';

/**
 * Photos get AVIF copies beside the WebP ones, so each web-sized copy now names its
 * format. The copies made before are all WebP; their properties get AVIF when the photo is
 * uploaded again.
 */
export class Migration20261127020000 extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      update "properties" set "image_variants" = (
        select jsonb_agg(variant || '{"type": "image/webp"}'::jsonb order by position)
        from jsonb_array_elements("image_variants") with ordinality as copies(variant, position)
      )
      where jsonb_typeof("image_variants") = 'array' and jsonb_array_length("image_variants") > 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`
      update "properties" set "image_variants" = (
        select jsonb_agg(variant - 'type' order by position)
        from jsonb_array_elements("image_variants") with ordinality as copies(variant, position)
        where variant ->> 'type' = 'image/webp'
      )
      where jsonb_typeof("image_variants") = 'array' and jsonb_array_length("image_variants") > 0;`);
  }
}
