CREATE TABLE "vehicle_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"vehicle_id" integer NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"number" text,
	"issued_on" date,
	"expires_on" date,
	"notes" text DEFAULT '' NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"renewal_id" integer,
	"preview_file_id" text,
	"size" integer DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vehicle_documents_type_check" CHECK ("vehicle_documents"."type" in ('REGISTRATION', 'TECHNICAL_CARD', 'MTPL_INSURANCE', 'CASCO', 'INSPECTION', 'VIGNETTE', 'ENV_LABEL', 'PURCHASE_CONTRACT', 'INVOICE', 'WARRANTY', 'OTHER'))
);
--> statement-breakpoint
CREATE TABLE "vehicle_document_pages" (
	"document_id" integer NOT NULL,
	"page" integer NOT NULL,
	"file_id" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	CONSTRAINT "vehicle_document_pages_document_id_page_pk" PRIMARY KEY("document_id","page")
);
--> statement-breakpoint
ALTER TABLE "vehicle_documents" ADD CONSTRAINT "vehicle_documents_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_documents" ADD CONSTRAINT "vehicle_documents_renewal_id_renewals_id_fk" FOREIGN KEY ("renewal_id") REFERENCES "public"."renewals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_documents" ADD CONSTRAINT "vehicle_documents_preview_file_id_files_id_fk" FOREIGN KEY ("preview_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_documents" ADD CONSTRAINT "vehicle_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_document_pages" ADD CONSTRAINT "vehicle_document_pages_document_id_vehicle_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."vehicle_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_document_pages" ADD CONSTRAINT "vehicle_document_pages_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vehicle_documents_vehicle_idx" ON "vehicle_documents" USING btree ("vehicle_id","type","id");--> statement-breakpoint
CREATE INDEX "vehicle_documents_renewal_idx" ON "vehicle_documents" USING btree ("renewal_id");--> statement-breakpoint
CREATE INDEX "vehicle_documents_preview_idx" ON "vehicle_documents" USING btree ("preview_file_id");--> statement-breakpoint
CREATE INDEX "vehicle_documents_created_by_idx" ON "vehicle_documents" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "vehicle_document_pages_file_idx" ON "vehicle_document_pages" USING btree ("file_id");
